import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

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

/** FFMPEG_PATH when set (it must run), else `ffmpeg` on the PATH, else the bundled binary. */
export function chooseFfmpeg(configured: string | undefined, searchPath = process.env.PATH ?? ''): FfmpegChoice {
  if (configured) {
    const file = path.resolve(configured);
    if (!isExecutable(file)) throw new Error(`FFMPEG_PATH is not an executable file: ${file}`);
    return { path: file, source: 'FFMPEG_PATH' };
  }
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'ffmpeg');
    if (isExecutable(candidate)) return { path: candidate, source: 'system' };
  }
  return { path: bundledFfmpeg(), source: 'bundled' };
}

/** ffmpeg's own first line ("ffmpeg version 5.1.6-0+deb12u1 ..."), for the start-up log. */
export function ffmpegVersion(file: string): string {
  const result = spawnSync(file, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
  return result.stdout?.split('\n')[0]?.trim() || `unknown (${result.error?.message ?? `exit ${result.status}`})`;
}

export type FfmpegRun = { code: number | null; signal: NodeJS.Signals | null; stderr: string };

/**
 * Runs ffmpeg processes so that none outlives the server: each in its own process group, killed
 * with the group by `killAll` at shutdown, and recorded in `pidDir` while it runs, so the next
 * start can end those a crash (kill -9, power loss) left behind (`killStrays`).
 */
export function ffmpegRunner(file: string, pidDir: string) {
  fs.mkdirSync(pidDir, { recursive: true });
  const running = new Set<number>();
  const pidFile = (pid: number) => path.join(pidDir, String(pid));

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

    run(args: string[], timeoutMs: number): Promise<FfmpegRun> {
      return new Promise((resolve, reject) => {
        const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
        const pid = child.pid;
        if (pid !== undefined) {
          running.add(pid);
          fs.writeFileSync(pidFile(pid), file);
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
          if (pid === undefined) return;
          running.delete(pid);
          fs.rmSync(pidFile(pid), { force: true });
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

    /**
     * Ends the ffmpeg processes a crashed run left: a pid recorded in `pidDir` whose process is
     * still this ffmpeg (a pid the system has since given to something else is left alone).
     * Answers how many were ended.
     */
    killStrays(): number {
      let killed = 0;
      for (const name of fs.readdirSync(pidDir)) {
        const pid = Number(name);
        const recorded = path.join(pidDir, name);
        if (Number.isSafeInteger(pid) && pid > 0 && !running.has(pid) && isOurFfmpeg(pid, file)) {
          killGroup(pid);
          killed++;
        }
        if (!running.has(pid)) fs.rmSync(recorded, { force: true });
      }
      return killed;
    },
  };
}

export type FfmpegRunner = ReturnType<typeof ffmpegRunner>;

/** Whether `pid` runs `file` (Linux's /proc; elsewhere nothing can be proven, so nothing is killed). */
function isOurFfmpeg(pid: number, file: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(file);
  } catch {
    return false;
  }
}
