import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { startTestServer } from '../tests/fixtures/test-server';
import { searchArtists } from '../server/features/artists/service';
import { load, report } from './http-load';

// Issue 3: search latency over 100,000 artists. FTS5 (what the API runs) against a LIKE scan of
// names and descriptions (what one would write without an index), measured in the same run.

const WORDS = (
  'jazz midnight orchestra river velvet echo neon harbor golden static lantern wild quiet ' +
  'electric honey copper paper ghost summer winter garden crystal rebel dream coast desert ' +
  'thunder violet marble shadow silver broken northern southern hollow ember ocean radio'
).split(' ');
const NOUNS = 'band collective trio quartet project ensemble choir singers club brothers sisters crew'.split(' ');

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

function timeEach(runs: number, task: (i: number) => void) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    task(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), p99: percentile(times, 0.99) };
}

const fmt = (t: { p50: number; p95: number; p99: number }) =>
  `p50 ${t.p50.toFixed(2)} ms  p95 ${t.p95.toFixed(2)} ms  p99 ${t.p99.toFixed(2)} ms`;

export async function benchArtistSearch(count = 100_000) {
  const server = await startTestServer();
  const random = seeded(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  // A vocabulary of a few thousand words, as real names and descriptions have, plus the named
  // words above so the searched terms occur.
  const syllables = 'ka lo ri mel san tor vi den qu ar bel mon fa zu ne'.split(' ');
  const vocabulary = [
    ...WORDS,
    ...Array.from({ length: 4000 }, () =>
      Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join(''),
    ),
  ];
  const started = performance.now();
  const userId = server.sqlite
    .prepare("INSERT INTO users (email, password_hash) VALUES ('bench@example.org', 'x')")
    .run().lastInsertRowid;
  const insert = server.sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  server.sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const name = `${pick(vocabulary)} ${pick(vocabulary)} ${pick(NOUNS)}`;
      const description = Array.from({ length: 25 }, () => pick(vocabulary)).join(' ');
      const published = random() < 0.9;
      insert.run(
        userId,
        name,
        description,
        published ? 'PUBLISHED' : 'DRAFT',
        `artist-${i}`,
        published ? Date.now() - i * 1000 : null,
      );
    }
  })();
  console.log(
    `\nArtist search: ${count.toLocaleString('en-US')} artists seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const deps = { ...server, mailer: { send: async () => undefined } };
  // From narrow to broad: 'qu' is a prefix of a large share of all words, the worst case.
  const terms = ['jaz', 'midnight orch', 'velvet', 'ember coast', 'silver thunder band', 'qu'];
  const runs = 300;
  const fts = timeEach(runs, (i) =>
    searchArtists(deps, { page: 0, pageSize: 20, searchTerm: terms[i % terms.length]! }),
  );
  const broad = timeEach(50, () => searchArtists(deps, { page: 0, pageSize: 20, searchTerm: 'qu' }));
  const broadCount = searchArtists(deps, { page: 0, pageSize: 20, searchTerm: 'qu' }).totalCount;
  const like = timeEach(runs, (i) => {
    const pattern = `%${terms[i % terms.length]!}%`;
    const where = sql`status = 'PUBLISHED' AND deleted_at IS NULL AND (name LIKE ${pattern} OR description LIKE ${pattern})`;
    server.db.all(sql`SELECT * FROM artists WHERE ${where} ORDER BY published_at DESC LIMIT 20`);
    server.db.all(sql`SELECT count(*) FROM artists WHERE ${where}`);
  });
  const recent = timeEach(runs, (i) => searchArtists(deps, { page: i % 50, pageSize: 20, searchTerm: '' }));
  console.log(`${'baseline: LIKE scan, page of 20 + count'.padEnd(44)} ${fmt(like)}`);
  console.log(
    `${'FTS5 prefix search, page of 20 + count'.padEnd(44)} ${fmt(fts)}  (${(like.p50 / fts.p50).toFixed(1)}× faster at p50)`,
  );
  console.log(`${`  of which 'qu' alone (${broadCount.toLocaleString('en-US')} matches)`.padEnd(44)} ${fmt(broad)}`);
  console.log(`${'recent artists (no term), pages 0-49'.padEnd(44)} ${fmt(recent)}`);

  const http = await load(`${server.baseUrl}/api/artists/search?searchTerm=midnight%20orch`, 2000, 16);
  report('GET /api/artists/search over HTTP, 16 concurrent', http);
  await server.close();
}
