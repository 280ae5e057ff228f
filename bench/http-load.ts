import { performance } from 'node:perf_hooks';

export type LoadResult = {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** `total` GET requests with `concurrency` in flight, over keep-alive loopback connections. */
export async function load(url: string, total: number, concurrency: number, headers: Record<string, string> = {}) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      next++;
      const t0 = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    seconds,
    perSecond: total / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
  } satisfies LoadResult;
}

export function report(name: string, result: LoadResult, baseline?: LoadResult) {
  const ratio = baseline ? `  (${(result.perSecond / baseline.perSecond).toFixed(2)}× baseline throughput)` : '';
  console.log(
    `${name.padEnd(44)} ${result.perSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p95 ${result.p95.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${ratio}`,
  );
}

/** Reads a response body to the end a chunk at a time, dropping each (nothing is held). */
export async function drainBody(response: Response, onChunk: (bytes: number) => void = () => undefined) {
  const reader = response.body!.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
    onChunk(value.byteLength);
  }
}
