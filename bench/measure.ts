import { performance } from 'node:perf_hooks';
import { startTestServer } from '../tests/fixtures/test-server';

// Shared by the benchmarks: a repeatable random source, percentile timing and a word list.

/** A small linear congruential generator: the same data on every run and machine. */
export function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

export type Percentiles = { p50: number; p95: number; p99: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export function timeEach(runs: number, task: (i: number) => void): Percentiles {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    task(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), p99: percentile(times, 0.99) };
}

export const fmt = (t: Percentiles) =>
  `p50 ${t.p50.toFixed(2)} ms  p95 ${t.p95.toFixed(2)} ms  p99 ${t.p99.toFixed(2)} ms`;

/** Words the benchmarks search for; each also occurs in the generated data. */
export const WORDS = (
  'jazz midnight orchestra river velvet echo neon harbor golden static lantern wild quiet ' +
  'electric honey copper paper ghost summer winter garden crystal rebel dream coast desert ' +
  'thunder violet marble shadow silver broken northern southern hollow ember ocean radio'
).split(' ');

/**
 * A vocabulary of a few thousand made-up words, as real names and descriptions have, plus WORDS
 * so the searched terms occur.
 */
export function vocabulary(random: () => number, size = 4000) {
  const syllables = 'ka lo ri mel san tor vi den qu ar bel mon fa zu ne'.split(' ');
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return [
    ...WORDS,
    ...Array.from({ length: size }, () =>
      Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join(''),
    ),
  ];
}

/** A fresh server on its own database, a seeded random source over the vocabulary, and one user. */
export async function benchSetup(seed: number) {
  const server = await startTestServer();
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const words = vocabulary(random);
  const userId = server.sqlite
    .prepare("INSERT INTO users (email, password_hash) VALUES ('bench@example.org', 'x')")
    .run().lastInsertRowid;
  return { server, random, pick, words, userId, started: performance.now() };
}
