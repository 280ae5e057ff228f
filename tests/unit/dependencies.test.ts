import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// A production install (`npm ci --omit=dev`) must run the site (issue 9: sharp sat in
// devDependencies, so the server could not start). Everything the server, the shared code and the
// client build import at run time is a dependency; type packages are not.

const manifest = z
  .object({
    scripts: z.record(z.string(), z.string()),
    dependencies: z.record(z.string(), z.string()),
    devDependencies: z.record(z.string(), z.string()),
  })
  .parse(JSON.parse(fs.readFileSync('package.json', 'utf8')));

/** The npm scripts a production install runs: `npm start`, or the build and the server, and the CLI. */
const OPERATOR_SCRIPTS = ['start', 'build', 'serve', 'cli'];
const stepsOf = (script: string) => manifest.scripts[script]!.split('&&').map((step) => step.trim().split(/\s+/));
const operatorSteps = OPERATOR_SCRIPTS.flatMap(stepsOf);
/** The files those scripts run (`node scripts/build-server.mjs`, `tsx scripts/first-view-css.ts`). */
const operatorFiles = operatorSteps.map(([, file]) => file ?? '').filter((file) => /\.(mjs|ts)$/.test(file));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** The packages a file imports for real (type-only imports vanish at run time). */
function importedPackages(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms),
    ...text.matchAll(/^import '([^']+)'/gm),
    ...text.matchAll(/import\('([^']+)'\)/g),
    // require('x'), and createRequire(import.meta.url)('x') for a package loaded only when needed.
    ...text.matchAll(/[rR]equire(?:\([^)]*\))?\('([^']+)'\)/g),
  ].map((match) => match[1]!);
  return specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    )
    .filter((name) => !builtinModules.includes(name) && name !== 'virtual:pwa-register');
}

describe('package.json', () => {
  it('lists everything the site imports at run time (and builds with) as a dependency', () => {
    const files = [
      ...sourceFiles('server'),
      ...sourceFiles('shared'),
      ...sourceFiles('client'),
      'vite.config.ts',
      ...operatorFiles,
    ];
    const missing = new Set<string>();
    for (const file of files) {
      for (const name of importedPackages(file)) if (!(name in manifest.dependencies)) missing.add(`${name} (${file})`);
    }
    expect([...missing]).toEqual([]);
  });

  it('keeps what only tests and benchmarks use out of a production install', () => {
    // The site's code, the build's configuration and plugins, and the files those scripts run.
    const files = [
      ...sourceFiles('server'),
      ...sourceFiles('shared'),
      ...sourceFiles('client'),
      'vite.config.ts',
      ...sourceFiles('scripts').filter((file) => file.endsWith('.ts')),
      ...operatorFiles,
    ];
    // And the commands they run (`tsx server/cli.ts`).
    const used = new Set([...files.flatMap(importedPackages), ...operatorSteps.map(([command]) => command)]);
    expect(Object.keys(manifest.dependencies).filter((name) => !used.has(name))).toEqual([]);
  });

  it('keeps type packages and test tools out of a production install', () => {
    const misplaced = Object.keys(manifest.dependencies).filter(
      (name) => name.startsWith('@types/') || ['vitest', 'playwright-core', 'eslint', 'prettier'].includes(name),
    );
    expect(misplaced).toEqual([]);
  });
});
