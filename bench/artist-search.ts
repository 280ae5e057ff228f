import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { searchArtists } from '../server/features/artists/service';
import { load, report } from './http-load';
import { benchSetup, fmt, timeEach } from './measure';

// Issue 3: search latency over 100,000 artists. FTS5 (what the API runs) against a LIKE scan of
// names and descriptions (what one would write without an index), measured in the same run.

const NOUNS = 'band collective trio quartet project ensemble choir singers club brothers sisters crew'.split(' ');

export async function benchArtistSearch(count = 100_000) {
  const { server, random, pick, words, userId, started } = await benchSetup(42);
  const insert = server.sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  server.sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const name = `${pick(words)} ${pick(words)} ${pick(NOUNS)}`;
      const description = Array.from({ length: 25 }, () => pick(words)).join(' ');
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

  const { deps } = server;
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
