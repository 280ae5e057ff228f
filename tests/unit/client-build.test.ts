import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

// `npm start` builds the client with warnings only (scripts/start.mjs: `vite build --logLevel warn`
// under NODE_ENV=production), so whatever Vite prints there is a warning an operator reads on
// every first start. There must be none: each one's cause is fixed (vite.config.ts says how).

it('builds the client as npm start does without printing a warning', () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-client-build-'));
  try {
    const build = spawnSync(
      path.resolve('node_modules/.bin/vite'),
      ['build', '--logLevel', 'warn', '--outDir', outDir],
      { env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
    );
    expect(build.status, build.stderr).toBe(0);
    expect(`${build.stdout}${build.stderr}`.trim()).toBe('');
    expect(fs.existsSync(path.join(outDir, 'sw.js'))).toBe(true);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}, 180_000);
