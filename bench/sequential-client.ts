import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Percentiles } from './measure';

// One visitor asking for the same answer again and again, from a process of its own: the time
// the server takes to answer, without the client's own work (decompressing and parsing the
// answer, its garbage) taking turns on the server's thread. Between requests it can ask the
// benchmark to change something first (money arriving), and waits until that is done.

const CHILD_FLAG = '--sequential-client';

type Job = {
  url: string;
  headers: Record<string, string>;
  runs: number;
  warmup: number;
  /** Every `pauseEvery`th request (0 = never) waits for the parent's `between` first. */
  pauseEvery: number;
};

type FromChild = { pause: number } | { times: number[] } | { error: string };

async function runJob({ url, headers, runs, warmup, pauseEvery }: Job, paused: (i: number) => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    if (pauseEvery > 0 && i % pauseEvery === 0) await paused(i);
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
    JSON.parse(text);
    if (i >= warmup) times.push(performance.now() - t0);
  }
  return times;
}

/**
 * `runs` GETs of `url` one after another (after `warmup` more), timed in a forked process;
 * `between(i)` runs here before every `pauseEvery`th.
 */
export function timeSequentialGets(
  job: Omit<Job, 'pauseEvery' | 'warmup'> & { warmup?: number; pauseEvery?: number },
  between: (i: number) => void = () => {},
): Promise<Percentiles> {
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.on('message', (message: FromChild) => {
      if ('pause' in message) {
        between(message.pause);
        child.send('go');
        return;
      }
      child.disconnect();
      if ('error' in message) return reject(new Error(message.error));
      const times = message.times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))]!;
      resolve({ p50: at(0.5), p95: at(0.95), p99: at(0.99) });
    });
    child.once('error', reject);
    child.send({ warmup: 20, pauseEvery: 0, ...job } satisfies Job);
  });
}

if (process.argv.includes(CHILD_FLAG) && process.send) {
  const send = (message: FromChild) => process.send!(message);
  let resume: (() => void) | undefined;
  process.on('message', (message: Job | 'go') => {
    if (message === 'go') return resume?.();
    const paused = (i: number) =>
      new Promise<void>((resolve) => {
        resume = resolve;
        send({ pause: i });
      });
    runJob(message, paused).then(
      (times) => send({ times }),
      (error: unknown) => send({ error: String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
