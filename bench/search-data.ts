import { performance } from 'node:perf_hooks';
import { type Genre, GENRES } from '../shared/constants';
import { BUNDLED_CHARITIES } from '../server/features/charities/bundled';
import type { TestServer } from '../tests/fixtures/test-server';
import { type Percentiles } from './measure';

// What the search benchmarks share (issues 3, 4 and 13): the generated artists and fundraisers,
// the terms searched, and timing a list of terms against the previous queries as the baseline.

type Setup = { server: TestServer; random: () => number; pick: <T>(list: readonly T[]) => T; words: string[] };

const NOUNS = 'band collective trio quartet project ensemble choir singers club brothers sisters crew'.split(' ');

/** Published (nine in ten) and draft artists, a three-word name and a 25-word description each. */
export function seedArtists({ server, random, pick, words }: Setup, userId: number | bigint, count: number) {
  const insert = server.sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  const ids: number[] = [];
  server.sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const published = random() < 0.9;
      const name = `${pick(words)} ${pick(words)} ${pick(NOUNS)}`;
      const description = Array.from({ length: 25 }, () => pick(words)).join(' ');
      const row = insert.run(
        userId,
        name,
        description,
        published ? 'PUBLISHED' : 'DRAFT',
        `artist-${i}`,
        published ? now - i * 1000 : null,
      );
      ids.push(Number(row.lastInsertRowid));
    }
  })();
  return ids;
}

/**
 * Fundraisers of the given artists: a two-word name, a 40-word description, one of the bundled
 * charities, a genre and half the time a second one; nine in ten published.
 */
export function seedFundraisers(
  { server, random, pick, words }: Setup,
  userId: number | bigint,
  artistIds: number[],
  count: number,
) {
  const insert = server.sqlite.prepare(
    `INSERT INTO fundraisers (user_id, artist_id, name, description, charity_ein, charity_name, minimum_donation_cents,
       genre, genre_secondary, status, url_slug, published_at) VALUES (?, ?, ?, ?, ?, ?, 500, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  server.sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const charity = pick(BUNDLED_CHARITIES);
      const published = random() < 0.9;
      insert.run(
        userId,
        pick(artistIds),
        `${pick(words)} ${pick(words)}`,
        Array.from({ length: 40 }, () => pick(words)).join(' '),
        charity.ein,
        charity.name,
        pick(GENRES),
        random() < 0.5 ? pick(GENRES) : null,
        published ? 'PUBLISHED' : 'DRAFT',
        `fundraiser-${i}`,
        published ? now - i * 1000 : null,
      );
    }
  })();
}

/** Selective terms as people type them. */
export const SELECTIVE_TERMS = ['jaz', 'midnight orch', 'velvet', 'ember coast', 'silver thunder'];

/**
 * The broadest single terms there are: every letter (each a prefix of tens of thousands of
 * words) and 'qu', a prefix of most of the generated words.
 */
export const BROAD_TERMS = [...'abcdefghijklmnopqrstuvwxyz'.split(''), 'qu'];

/** The EIN of the first bundled charity: the filter benchmarks' charity. */
export const BENCH_EIN = BUNDLED_CHARITIES[0]!.ein;

/** Genres in turn, for the filter benchmarks. */
export const genreAt = (i: number): Genre => GENRES[i % GENRES.length]!;

export type SearchRowsOptions = {
  /** The targets for p99: a term, and a recent list. */
  termMs: number;
  recentMs?: number;
  /**
   * The broad terms the previous queries are timed on, and how many LIKE scans: at a million rows
   * each of those takes seconds, so the scale run times a few.
   */
  baselineTerms?: readonly string[];
  likeRuns?: number;
};

export type TermTimes = Percentiles & { cpuP99: number };

/**
 * Times `task` over `terms`, `rounds` times each, interleaved: one distribution for all of them.
 * Besides the wall clock, the process's CPU time per call: the server runs in this process and a
 * search is synchronous, so that is the search's own work, which other processes on a busy
 * machine cannot stretch the way they stretch the wall clock.
 */
export function timeTerms(
  terms: readonly string[],
  rounds: number,
  task: (term: string, i: number) => void,
): TermTimes {
  const wall: number[] = [];
  const cpu: number[] = [];
  let i = 0;
  for (let round = 0; round < rounds; round++) {
    for (const term of terms) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      task(term, i++);
      wall.push(performance.now() - t0);
      const used = process.cpuUsage(cpu0);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  const at = (times: number[], p: number) => {
    const sorted = [...times].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  };
  return { p50: at(wall, 0.5), p95: at(wall, 0.95), p99: at(wall, 0.99), cpuP99: at(cpu, 0.99) };
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

/**
 * One line of the table: the figures, the baseline's, the ratio at p99 and, when there is one,
 * the target for p99 (of the wall clock).
 */
export function printRow(label: string, result: Percentiles | TermTimes, baseline?: Percentiles, targetMs?: number) {
  const cpu = 'cpuP99' in result ? `  (CPU p99 ${ms(result.cpuP99)} ms)` : '';
  const parts = [
    `${label.padEnd(58)} p50 ${ms(result.p50).padStart(6)} ms  p99 ${ms(result.p99).padStart(6)} ms${cpu}`,
  ];
  if (baseline) {
    parts.push(`before: p50 ${ms(baseline.p50)} ms, p99 ${ms(baseline.p99)} ms`);
    parts.push(`${(baseline.p99 / result.p99).toFixed(1)}× at p99`);
  }
  if (targetMs !== undefined) parts.push(`target p99 ≤ ${targetMs} ms: ${result.p99 <= targetMs ? 'met' : 'MISSED'}`);
  console.log(parts.join('  |  '));
}
