// Compiles the server (server/ and shared/) to dist-server/ with esbuild, so production runs
// plain JavaScript on one node process: no TypeScript loader at run time (issue 13). Packages
// stay in node_modules (only `dependencies` are needed to run it); migrations are read from
// drizzle/ beside package.json (server/paths.ts). `npm run build` and `npm start` run this.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/** The server's entry points (dist-server/<name>.js): the server, the admin CLI and its own processes. */
export const serverEntries = {
  main: 'server/main.ts',
  cli: 'server/cli.ts',
  'image-worker': 'server/features/uploads/image-worker.ts',
  'seed-demo': 'server/demo/seed-process.ts',
};

export async function buildServer(outdir = path.join(root, 'dist-server')) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: serverEntries,
    outdir,
    bundle: true,
    // Code shared by main and cli, and modules loaded lazily with import(), become chunks.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Readable stack traces in the logs without a source-map loader at run time. Not keepNames:
    // V8 names functions after what they are assigned to anyway, and keepNames wraps every
    // function made per request (a handler's closures) in a call that redefines its name, a
    // cost on each request (issue 24).
    minify: false,
    logLevel: 'warning',
  });
  // Marks the folder as ES modules whatever package.json says, so it runs from anywhere.
  fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
