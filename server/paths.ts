import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding package.json, found from this module's own place, so that files read at
 * run time (drizzle/'s migrations) resolve the same from server/ under tsx and from the compiled
 * dist-server/ (scripts/build-server.mjs), whatever the working directory.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'drizzle'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder (package.json and drizzle/) above ${from}`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * A module of the server to run as a process of its own (the image worker, the demo seeding):
 * the compiled dist-server/<name>.js beside this code (scripts/build-server.mjs lists them), or
 * under tsx its TypeScript source, `source` from the project folder.
 */
export function serverEntry(name: string, source: string): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.js'))
    return { file: fileURLToPath(new URL(`./${name}.js`, import.meta.url)), execArgv: [] };
  return { file: path.join(projectRoot, source), execArgv: ['--import', 'tsx'] };
}
