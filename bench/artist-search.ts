import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { searchArtists, toArtist } from '../server/features/artists/service';
import { toMatchQuery } from '../server/infra/full-text';
import { load, report } from './http-load';
import { benchSetup, timeEach } from './measure';
import { previousSearchArtists } from './previous-search';
import { BROAD_TERMS, printRow, type SearchRowsOptions, seedArtists, SELECTIVE_TERMS, timeTerms } from './search-data';

// Issues 3 and 13: artist search over 100,000 artists. Each row is the service the API calls,
// next to the query before issue 13 on the same data (and, for the selective terms, a LIKE scan
// of names and descriptions: what one would write without an index).

export async function benchArtistSearch(count = 100_000) {
  const setup = await benchSetup(42);
  const { server, userId, started } = setup;
  seedArtists(setup, userId, count);
  console.log(
    `\nArtist search: ${count.toLocaleString('en-US')} artists seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  runArtistSearchRows(server, { termMs: 25 });

  const http = await load(`${server.baseUrl}/api/artists/search?searchTerm=midnight%20orch`, 2000, 16);
  report('GET /api/artists/search over HTTP, 16 concurrent', http);
  await server.close();
}

/** The table's rows for artists, on data already seeded; also used at a million rows. */
export function runArtistSearchRows(
  server: Awaited<ReturnType<typeof benchSetup>>['server'],
  { termMs: targetMs, baselineTerms = BROAD_TERMS, likeRuns = 100 }: SearchRowsOptions,
) {
  const { deps, db } = server;
  const search = (searchTerm: string, page = 0) => searchArtists(deps, { page, pageSize: 20, searchTerm });
  const before = (searchTerm: string, page = 0) => {
    const found = previousSearchArtists(db, toMatchQuery(searchTerm)!, 20, page * 20);
    return { results: found.results.map(toArtist), totalCount: found.totalCount };
  };
  const like = timeEach(likeRuns, (i) => {
    const pattern = `%${SELECTIVE_TERMS[i % SELECTIVE_TERMS.length]!}%`;
    const where = sql`status = 'PUBLISHED' AND deleted_at IS NULL AND (name LIKE ${pattern} OR description LIKE ${pattern})`;
    db.all(sql`SELECT * FROM artists WHERE ${where} ORDER BY published_at DESC LIMIT 20`);
    db.all(sql`SELECT count(*) FROM artists WHERE ${where}`);
  });
  printRow('baseline: LIKE scan of names and descriptions, page + count', like);
  printRow(
    `selective terms (${SELECTIVE_TERMS.length}), page of 20 + total`,
    timeTerms(SELECTIVE_TERMS, 40, (term) => search(term)),
    timeTerms(SELECTIVE_TERMS, 40, (term) => before(term)),
    targetMs,
  );
  const qu = search('qu');
  console.log(`  broad: 'qu' matches ${qu.totalCount.toLocaleString('en-US')}${qu.totalCountCapped ? '+' : ''}`);
  printRow(
    `every single letter a-z and 'qu' (${BROAD_TERMS.length} terms), page 0`,
    timeTerms(BROAD_TERMS, 8, (term) => search(term)),
    timeTerms(baselineTerms, 2, (term) => before(term)),
    targetMs,
  );
  printRow(
    `  the same, pages 1-9`,
    timeTerms(BROAD_TERMS, 4, (term, i) => search(term, 1 + (i % 9))),
    timeTerms(baselineTerms, 1, (term, i) => before(term, 1 + (i % 9))),
    targetMs,
  );
  const pages = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
  printRow(
    'recent artists (no term), pages 0-9',
    timeTerms(pages, 30, (page) => search('', Number(page))),
  );
}
