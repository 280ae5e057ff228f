import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseFfmpeg, ffmpegRunner, ffmpegVersion } from '../../server/infra/audio/ffmpeg';

// Which ffmpeg decodes uploads, and that none of its processes outlives the server (issue 9). A
// shell script stands in for ffmpeg where a process must run long enough to be killed.

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-ffmpeg-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An executable `ffmpeg` in `folder` that prints a version and otherwise sleeps (so it can be killed). */
function fakeFfmpeg(folder: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'ffmpeg');
  fs.writeFileSync(
    file,
    '#!/bin/sh\nif [ "$2" = "-version" ]; then echo "ffmpeg version 9.9-test"; exit 0; fi\nsleep 30\n',
    {
      mode: 0o755,
    },
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
  it('kills every running ffmpeg at shutdown and forgets it', async () => {
    const runner = ffmpegRunner(fakeFfmpeg(path.join(dir, 'bin')), path.join(dir, 'pids'));
    const running = runner.run(['-i', 'x'], 60_000);
    await expect.poll(() => fs.readdirSync(path.join(dir, 'pids')).length).toBe(1);
    const pid = Number(fs.readdirSync(path.join(dir, 'pids'))[0]);
    expect(isAlive(pid)).toBe(true);
    runner.killAll();
    expect((await running).signal).toBe('SIGKILL');
    expect(isAlive(pid)).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'pids'))).toEqual([]);
  });

  it('kills a run that outlives its time limit', async () => {
    const runner = ffmpegRunner(fakeFfmpeg(path.join(dir, 'bin')), path.join(dir, 'pids'));
    expect((await runner.run(['-i', 'x'], 200)).signal).toBe('SIGKILL');
  });

  it("at start, ends the ffmpeg processes a crashed run left, and leaves other processes' pids alone", async () => {
    const program = fakeFfmpeg(path.join(dir, 'bin'));
    const pids = path.join(dir, 'pids');
    fs.mkdirSync(pids);
    // A stray: our ffmpeg, in its own group, recorded by the run that crashed.
    const stray = spawn(program, ['-i', 'x'], { detached: true, stdio: 'ignore' });
    fs.writeFileSync(path.join(pids, String(stray.pid)), program);
    // A pid the system has given to something else since.
    const other = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    fs.writeFileSync(path.join(pids, String(other.pid)), program);
    try {
      const exited = new Promise((resolve) => stray.once('exit', resolve));
      expect(ffmpegRunner(program, pids).killStrays()).toBe(1);
      await exited;
      expect(isAlive(other.pid!)).toBe(true);
      expect(fs.readdirSync(pids)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
      stray.kill('SIGKILL');
    }
  });
});
