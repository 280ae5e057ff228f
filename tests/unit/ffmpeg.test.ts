import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { childProcesses } from '../../server/db/schema';
import { chooseFfmpeg, ffmpegRunner, ffmpegVersion } from '../../server/infra/audio/ffmpeg';
import { createLogger } from '../../server/infra/logger';
import { formatIdentity, identify, isRunning, parseIdentity, thisProcess } from '../../server/infra/processes/identity';
import { processRegistry } from '../../server/infra/processes/registry';

// Which ffmpeg decodes uploads, and that none of its processes outlives the server (issue 9,
// issue 22). A shell script stands in for ffmpeg where a process must run long enough to be killed.

let dir: string;
let opened: ReturnType<typeof openDatabase>;
const spawned: number[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-ffmpeg-'));
  opened = openDatabase(path.join(dir, 'soundcause.db'));
});
afterEach(() => {
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Ended already, as it should have.
    }
  }
  opened.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An executable `ffmpeg` in `folder` that prints a version and otherwise sleeps (so it can be killed). */
function fakeFfmpeg(folder: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'ffmpeg');
  // `exec`: the sleep is the process started (as ffmpeg would be), not a child of a shell.
  fs.writeFileSync(
    file,
    '#!/bin/sh\nif [ "$2" = "-version" ]; then echo "ffmpeg version 9.9-test"; exit 0; fi\nexec sleep 30\n',
    { mode: 0o755 },
  );
  return file;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const logger = createLogger('silent');
const registry = () => processRegistry(opened.db, { root: dir, logger });
const records = () => opened.db.select().from(childProcesses).all();

/** The process of the one run recorded now (once it is). */
async function recordedRun(timeout = 1000) {
  await expect.poll(() => records().length === 1 && records()[0]!.process, { timeout }).toBeTruthy();
  const record = records()[0]!;
  const identity = parseIdentity(record.process!)!;
  spawned.push(identity.pid);
  return { record, identity };
}

describe('choosing ffmpeg', () => {
  it('takes FFMPEG_PATH first, then an ffmpeg on the PATH, and the bundled 2018 build only as the fallback', () => {
    const onPath = fakeFfmpeg(path.join(dir, 'bin'));
    const configured = fakeFfmpeg(path.join(dir, 'opt'));
    expect(chooseFfmpeg(configured, path.join(dir, 'bin'))).toEqual({ path: configured, source: 'FFMPEG_PATH' });
    expect(chooseFfmpeg(undefined, `${path.join(dir, 'empty')}:${path.join(dir, 'bin')}`)).toEqual({
      path: onPath,
      source: 'system',
    });
    expect(chooseFfmpeg(undefined, path.join(dir, 'empty'))).toEqual({ path: ffmpegInstaller.path, source: 'bundled' });
    expect(ffmpegVersion(onPath)).toBe('ffmpeg version 9.9-test');
  });

  it('refuses to start with an FFMPEG_PATH that is not a program', () => {
    expect(() => chooseFfmpeg(path.join(dir, 'missing'))).toThrow(/FFMPEG_PATH is not an executable file/);
  });
});

describe('running ffmpeg', () => {
  it('records each run while it runs: the very process, its arguments and the files it writes', async () => {
    const runner = ffmpegRunner(fakeFfmpeg(path.join(dir, 'bin')), registry());
    const out = path.join(dir, 'media', 'streams', 'new.mp3');
    const running = runner.run(['-i', 'x', out], 60_000, [out]);
    const { record, identity } = await recordedRun();
    expect(identity).toEqual(identify(identity.pid));
    expect(record).toMatchObject({
      owner: formatIdentity(thisProcess()),
      args: JSON.stringify(['-i', 'x', out]),
      outputs: JSON.stringify([path.join('media', 'streams', 'new.mp3')]),
    });
    runner.killAll();
    await running;
    expect(records()).toEqual([]);
  });

  it('kills every running ffmpeg at shutdown and forgets it', async () => {
    const runner = ffmpegRunner(fakeFfmpeg(path.join(dir, 'bin')), registry());
    const running = runner.run(['-i', 'x'], 60_000);
    const { identity } = await recordedRun();
    expect(isAlive(identity.pid)).toBe(true);
    runner.killAll();
    expect((await running).signal).toBe('SIGKILL');
    expect(isRunning(identity)).toBe(false);
    expect(records()).toEqual([]);
  });

  it('kills a run that outlives its time limit', async () => {
    const runner = ffmpegRunner(fakeFfmpeg(path.join(dir, 'bin')), registry());
    expect((await runner.run(['-i', 'x'], 200)).signal).toBe('SIGKILL');
  });

  it.skipIf(process.platform !== 'linux')(
    'ends ffmpeg when the server that started it is killed with SIGKILL',
    async () => {
      // The server: a Node process running the real runner (tests/fixtures/ffmpeg-parent.ts).
      const server = spawn(
        process.execPath,
        ['--import', 'tsx', 'tests/fixtures/ffmpeg-parent.ts', fakeFfmpeg(path.join(dir, 'bin')), dir],
        { stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => server.once('exit', resolve));
      try {
        const { identity } = await recordedRun(15_000);
        expect(isRunning(identity)).toBe(true);
        server.kill('SIGKILL');
        await exited;
        await expect.poll(() => isRunning(identity)).toBe(false);
      } finally {
        server.kill('SIGKILL');
      }
    },
    20_000,
  );
});
