import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Genre, GENRES } from '../shared/constants';
import { searchFundraisers } from '../server/features/fundraisers/service';
import { BUNDLED_CHARITIES } from '../server/features/charities/bundled';
import { load, report } from './http-load';
import { benchSetup, fmt, timeEach } from './measure';

// Issue 4: search latency over 100,000 fundraisers, with and without the genre and charity
// filters. FTS5 (what the API runs) against a LIKE scan of name, description, artist and charity
// names (what one would write without an index), measured in the same run.

export async function benchFundraiserSearch(count = 100_000) {
  const { server, random, pick, words, userId, started } = await benchSetup(7);
  const insertArtist = server.sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at) VALUES (?, ?, '', 'PUBLISHED', ?, ?)`,
  );
  const insertFundraiser = server.sqlite.prepare(
    `INSERT INTO fundraisers (user_id, artist_id, name, description, charity_ein, charity_name, minimum_donation_cents,
       genre, genre_secondary, status, url_slug, published_at) VALUES (?, ?, ?, ?, ?, ?, 500, ?, ?, ?, ?, ?)`,
  );
  const artistIds: number[] = [];
  server.sqlite.transaction(() => {
    for (let i = 0; i < count / 20; i++) {
      const name = `${pick(words)} ${pick(words)} ${pick(['band', 'trio', 'choir', 'collective'])}`;
      artistIds.push(Number(insertArtist.run(userId, name, `bench-artist-${i}`, Date.now()).lastInsertRowid));
    }
    for (let i = 0; i < count; i++) {
      const charity = pick(BUNDLED_CHARITIES);
      const published = random() < 0.9;
      insertFundraiser.run(
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
        published ? Date.now() - i * 1000 : null,
      );
    }
  })();
  console.log(
    `\nFundraiser search: ${count.toLocaleString('en-US')} fundraisers of ${artistIds.length.toLocaleString('en-US')} artists seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const { deps } = server;
  // Selective terms as people type them; 'qu' (a prefix of a large share of all words) and a
  // charity's name (in every fundraiser for it) are the broad cases, timed on their own.
  const terms = ['jaz', 'midnight orch', 'velvet', 'ember coast', 'silver thunder'];
  const ein = BUNDLED_CHARITIES[0]!.ein;
  const search = (searchTerm: string, filters: { genre?: Genre; charityEin?: string } = {}, page = 0) =>
    searchFundraisers(deps, null, {
      page,
      pageSize: 20,
      searchTerm,
      genre: filters.genre,
      charityEin: filters.charityEin,
    });
  const runs = 200;
  const like = timeEach(runs, (i) => {
    const pattern = `%${terms[i % terms.length]!}%`;
    const where = sql`f.status = 'PUBLISHED' AND f.deleted_at IS NULL AND (f.name LIKE ${pattern} OR f.description LIKE ${pattern} OR f.charity_name LIKE ${pattern} OR a.name LIKE ${pattern})`;
    server.db.all(
      sql`SELECT f.* FROM fundraisers f JOIN artists a ON a.id = f.artist_id WHERE ${where} ORDER BY f.published_at DESC LIMIT 20`,
    );
    server.db.all(sql`SELECT count(*) FROM fundraisers f JOIN artists a ON a.id = f.artist_id WHERE ${where}`);
  });
  const rows: [string, ReturnType<typeof timeEach>][] = [
    ['baseline: LIKE scan, page of 20 + count', like],
    ['FTS5 search, no filter', timeEach(runs, (i) => search(terms[i % terms.length]!))],
    ['FTS5 search + genre', timeEach(runs, (i) => search(terms[i % terms.length]!, { genre: GENRES[i % 16] }))],
    ['FTS5 search + charity EIN', timeEach(runs, (i) => search(terms[i % terms.length]!, { charityEin: ein }))],
    [
      'FTS5 search + genre + EIN',
      timeEach(runs, (i) => search(terms[i % terms.length]!, { genre: 'Jazz', charityEin: ein })),
    ],
    [`  broad: 'qu' (${search('qu').totalCount.toLocaleString('en-US')} matches)`, timeEach(50, () => search('qu'))],
    [
      `  broad: 'red cross' (${search('red cross').totalCount.toLocaleString('en-US')} matches)`,
      timeEach(50, () => search('red cross')),
    ],
    ['recent (no term), pages 0-49', timeEach(runs, (i) => search('', {}, i % 50))],
    ['recent + genre', timeEach(runs, (i) => search('', { genre: GENRES[i % 16] }, i % 10))],
    ['recent + charity EIN', timeEach(runs, (i) => search('', { charityEin: ein }, i % 10))],
  ];
  for (const [label, times] of rows) {
    const ratio = times === like ? '' : `  (${(like.p50 / times.p50).toFixed(1)}× the baseline at p50)`;
    console.log(`${label.padEnd(44)} ${fmt(times)}${ratio}`);
  }
  const http = await load(`${server.baseUrl}/api/fundraisers/search?searchTerm=midnight%20orch&genre=Jazz`, 1000, 16);
  report('GET /api/fundraisers/search over HTTP, 16 concurrent', http);
  await server.close();
}
