import { performance } from 'node:perf_hooks';
import { drainBody } from './http-load';

// The load generator of bench/range-throughput.ts, in a process of its own (forked by it), so the
// server under test has its event loop to itself: fetch's own work would otherwise take turns
// with the server's and hide part of what the server costs. One job per message, one answer back.

export type RangeJob = {
  url: string;
  headers: Record<string, string>;
  total: number;
  concurrency: number;
  /** The bytes every answer must have when no ranges are asked for. */
  fileBytes: number;
  /** Request i asks for ranges[i % ranges.length]; none: whole GETs. */
  ranges?: { start: number; end: number }[];
};

/** What one job measured: each request's latency in ms, in the order they finished. */
export type RangeResult = { requests: number; bytes: number; seconds: number; latencies: number[] };

/**
 * `total` GETs with `concurrency` in flight over keep-alive connections, each body read to the end
 * and dropped chunk by chunk (an arrayBuffer of 20 MB per request would measure the allocator).
 * Every answer is checked for status and length.
 */
export async function runRangeJob({ url, headers, total, concurrency, fileBytes, ranges }: RangeJob) {
  const latencies: number[] = [];
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      const i = next++;
      const range = ranges?.[i % ranges.length];
      const t0 = performance.now();
      const response = await fetch(url, {
        headers: range ? { ...headers, range: `bytes=${range.start}-${range.end}` } : headers,
      });
      const received = await drainBody(response);
      const expected = range ? range.end - range.start + 1 : fileBytes;
      if (response.status !== (range ? 206 : 200) || received !== expected) {
        throw new Error(`${url} answered ${response.status} with ${received} bytes, not ${expected}`);
      }
      bytes += received;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { requests: total, bytes, seconds, latencies } satisfies RangeResult;
}

/** The argument bench/range-throughput.ts forks this file with. */
export const CHILD_FLAG = '--range-load-child';

// Forked: answer each job the parent sends, until it lets go of us.
if (process.argv.includes(CHILD_FLAG) && process.send) {
  process.on('message', (job: RangeJob) => {
    runRangeJob(job).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
