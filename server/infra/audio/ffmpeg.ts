import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import type { ProcessRegistry } from '../processes/registry';

// Which ffmpeg decodes the files strangers upload, and keeping its processes on a short leash
// (issue 9). The npm package's binary is a 2018 build: a system ffmpeg (Debian's package gets
// security fixes) is preferred whenever there is one, the bundled one is the fallback.

export type FfmpegChoice = { path: string; source: 'FFMPEG_PATH' | 'system' | 'bundled' };

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The bundled binary; npm may have skipped the package's chmod script, so it is made runnable here. */
function bundledFfmpeg(): string {
  const file = ffmpegInstaller.path;
  if (!isExecutable(file)) fs.chmodSync(file, 0o755);
  return file;
}

/** The first executable `name` in the folders of `searchPath`. */
function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** FFMPEG_PATH when set (it must run), else `ffmpeg` on the PATH, else the bundled binary. */
export function chooseFfmpeg(configured: string | undefined, searchPath = process.env.PATH ?? ''): FfmpegChoice {
  if (configured) {
    const file = path.resolve(configured);
    if (!isExecutable(file)) throw new Error(`FFMPEG_PATH is not an executable file: ${file}`);
    return { path: file, source: 'FFMPEG_PATH' };
  }
  const system = findOnPath('ffmpeg', searchPath);
  return system ? { path: system, source: 'system' } : { path: bundledFfmpeg(), source: 'bundled' };
}

/** ffmpeg's own first line ("ffmpeg version 5.1.6-0+deb12u1 ..."), for the start-up log. */
export function ffmpegVersion(file: string): string {
  const result = spawnSync(file, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
  return result.stdout?.split('\n')[0]?.trim() || `unknown (${result.error?.message ?? `exit ${result.status}`})`;
}

export type FfmpegRun = { code: number | null; signal: NodeJS.Signals | null; stderr: string };

/**
 * util-linux's setpriv, when it can start a program that the kernel kills with SIGKILL as soon as
 * its parent (the server) dies: prctl(PR_SET_PDEATHSIG), which Node cannot ask for itself. Linux
 * only; elsewhere, or where setpriv is missing or refused (a seccomp filter), undefined. The probe
 * runs it for real, since a setpriv that fails would fail every transcode.
 */
function findParentDeathWrapper(searchPath = process.env.PATH ?? ''): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const setpriv = findOnPath('setpriv', `${searchPath}${path.delimiter}/usr/bin${path.delimiter}/bin`);
  if (!setpriv) return undefined;
  const probe = spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', setpriv, '--version'], { timeout: 10_000 });
  return probe.status === 0 ? setpriv : undefined;
}

/**
 * Runs ffmpeg processes so that none outlives the server (issue 9, issue 22):
 * - each is started through setpriv (when there is one) so that the kernel kills it when the
 *   server dies, whatever kills the server;
 * - each runs as the leader of its own process group, killed with the group by `killAll` at
 *   shutdown (and by its time limit);
 * - each is recorded in `registry` (the database) while it runs, with the files it writes, so that
 *   if it still outlives the server (killed in the instant between its start and setpriv's
 *   prctl, or on a system without setpriv) the next start ends it and removes those files
 *   before its job runs again (registry.ts).
 */
export function ffmpegRunner(file: string, registry: ProcessRegistry) {
  const parentDeathWrapper = findParentDeathWrapper();
  const running = new Set<number>();

  const killGroup = (pid: number) => {
    try {
      // A negative pid signals the whole group that `detached` gave the child.
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };

  return {
    path: file,
    /** Whether ffmpeg dies with the server (setpriv found and allowed), for the start-up log. */
    diesWithServer: parentDeathWrapper !== undefined,

    /** Runs ffmpeg with `args`; `outputs` are the files it writes (removed if a crash abandons it). */
    run(args: string[], timeoutMs: number, outputs: string[] = []): Promise<FfmpegRun> {
      return new Promise((resolve, reject) => {
        const [command, commandArgs] = parentDeathWrapper
          ? [parentDeathWrapper, ['--pdeathsig', 'KILL', '--', file, ...args]]
          : [file, args];
        const recordId = registry.record(args, outputs);
        const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
        const pid = child.pid;
        if (pid !== undefined) {
          running.add(pid);
          registry.started(recordId, pid);
        }
        const timer = setTimeout(() => pid !== undefined && killGroup(pid), timeoutMs);
        let stderr = '';
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk: string) => {
          // Only the tail matters (the loudness summary and the error); keep memory flat.
          stderr = (stderr + chunk).slice(-64 * 1024);
        });
        const forget = () => {
          clearTimeout(timer);
          if (pid !== undefined) running.delete(pid);
          registry.forget(recordId);
        };
        child.on('error', (error) => {
          forget();
          reject(error);
        });
        child.on('close', (code, signal) => {
          forget();
          resolve({ code, signal, stderr });
        });
      });
    },

    /** Ends every ffmpeg this process started (shutdown): their jobs are taken up again at the next start. */
    killAll() {
      for (const pid of running) killGroup(pid);
    },
  };
}

export type FfmpegRunner = ReturnType<typeof ffmpegRunner>;
