import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Genre } from '../shared/constants';
import { presentFundraisers } from '../server/features/fundraisers/presenter';
import { findFundraisers } from '../server/features/fundraisers/service';
import { toMatchQuery } from '../server/infra/full-text';
import { load, report } from './http-load';
import { benchSetup, timeEach } from './measure';
import { previousRecentFundraisers, previousSearchFundraisers } from './previous-search';
import {
  BENCH_EIN,
  BROAD_TERMS,
  genreAt,
  printRow,
  seedArtists,
  type SearchRowsOptions,
  seedFundraisers,
  SELECTIVE_TERMS,
  timeTerms,
} from './search-data';

// Issues 4 and 13: fundraiser search over 100,000 fundraisers (FTS5 over name, description,
// artist and charity; genre and EIN filters), and the recent lists with those filters. Each row
// is the service the API calls, next to the queries before issue 13 on the same data (and, for
// the selective terms, a LIKE scan: what one would write without an index).

export async function benchFundraiserSearch(count = 100_000) {
  const setup = await benchSetup(7);
  const { server, userId, started } = setup;
  const artistIds = seedArtists(setup, userId, count / 20);
  seedFundraisers(setup, userId, artistIds, count);
  console.log(
    `\nFundraiser search: ${count.toLocaleString('en-US')} fundraisers of ${artistIds.length.toLocaleString('en-US')} artists seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  runFundraiserSearchRows(server, { termMs: 25, recentMs: 10 });

  const http = await load(`${server.baseUrl}/api/fundraisers/search?searchTerm=midnight%20orch&genre=Jazz`, 1000, 16);
  report('GET /api/fundraisers/search over HTTP, 16 concurrent', http);
  await server.close();
}

type Filters = { genre?: Genre; charityEin?: string };

/** The table's rows for fundraisers, on data already seeded; also used at a million rows. */
export function runFundraiserSearchRows(
  server: Awaited<ReturnType<typeof benchSetup>>['server'],
  { termMs, recentMs = termMs, baselineTerms = BROAD_TERMS, likeRuns = 100 }: SearchRowsOptions,
) {
  const { deps, db } = server;
  // The search itself, not its cached answer: the query and the JSON of its page, every time.
  const search = (searchTerm: string, filters: Filters = {}, page = 0) => {
    const found = findFundraisers(deps, {
      page,
      pageSize: 20,
      searchTerm,
      genre: filters.genre,
      charityEin: filters.charityEin,
    });
    return { ...found, results: presentFundraisers(deps, found.rows, null) };
  };
  // The baseline presents its rows as the service does, so both sides do the same work.
  const before = (searchTerm: string, filters: Filters = {}, page = 0) => {
    const match = toMatchQuery(searchTerm);
    const found = match
      ? previousSearchFundraisers(db, match, filters, 20, page * 20)
      : previousRecentFundraisers(db, filters, 20, page * 20);
    return { results: presentFundraisers(deps, found.results, null), totalCount: found.totalCount };
  };
  const broadCount = (term: string) => {
    const found = search(term);
    return `${found.totalCount.toLocaleString('en-US')}${found.totalCountCapped ? '+' : ''}`;
  };
  // Genre, EIN and both in turn.
  const withFilter = (i: number): Filters =>
    [{ genre: genreAt(i) }, { charityEin: BENCH_EIN }, { genre: genreAt(i), charityEin: BENCH_EIN }][i % 3]!;

  const like = timeEach(likeRuns, (i) => {
    const pattern = `%${SELECTIVE_TERMS[i % SELECTIVE_TERMS.length]!}%`;
    const where = sql`f.status = 'PUBLISHED' AND f.deleted_at IS NULL AND (f.name LIKE ${pattern} OR f.description LIKE ${pattern} OR f.charity_name LIKE ${pattern} OR a.name LIKE ${pattern})`;
    db.all(
      sql`SELECT f.* FROM fundraisers f JOIN artists a ON a.id = f.artist_id WHERE ${where} ORDER BY f.published_at DESC LIMIT 20`,
    );
    db.all(sql`SELECT count(*) FROM fundraisers f JOIN artists a ON a.id = f.artist_id WHERE ${where}`);
  });
  printRow('baseline: LIKE scan of the four texts, page of 20 + count', like);
  printRow(
    `selective terms (${SELECTIVE_TERMS.length}), page of 20 + total`,
    timeTerms(SELECTIVE_TERMS, 40, (term) => search(term)),
    timeTerms(SELECTIVE_TERMS, 40, (term) => before(term)),
    termMs,
  );
  printRow(
    '  the same with genre / EIN / genre + EIN in turn',
    timeTerms(SELECTIVE_TERMS, 30, (term, i) => search(term, withFilter(i))),
    timeTerms(SELECTIVE_TERMS, 30, (term, i) => before(term, withFilter(i))),
    termMs,
  );
  console.log(
    `  broad: ${['a', 'm', 'e', 'qu'].map((term) => `'${term}' matches ${broadCount(term)}`).join(', ')}; 'red cross' ${broadCount('red cross')}`,
  );
  printRow(
    `every single letter a-z and 'qu' (${BROAD_TERMS.length} terms), page 0`,
    timeTerms(BROAD_TERMS, 8, (term) => search(term)),
    timeTerms(baselineTerms, 2, (term) => before(term)),
    termMs,
  );
  printRow(
    `  the same, pages 1-9`,
    timeTerms(BROAD_TERMS, 4, (term, i) => search(term, {}, 1 + (i % 9))),
    timeTerms(baselineTerms, 1, (term, i) => before(term, {}, 1 + (i % 9))),
    termMs,
  );
  for (const [label, filters] of [
    ['genre', (i: number) => ({ genre: genreAt(i) })],
    ['EIN', () => ({ charityEin: BENCH_EIN })],
    ['genre + EIN', (i: number) => ({ genre: genreAt(i), charityEin: BENCH_EIN })],
  ] as const) {
    printRow(
      `  the same + ${label}`,
      timeTerms(BROAD_TERMS, 4, (term, i) => search(term, filters(i))),
      timeTerms(baselineTerms, 1, (term, i) => before(term, filters(i))),
      termMs,
    );
  }
  printRow(
    `  'red cross' (a charity's name)`,
    timeTerms(['red cross'], 50, (term) => search(term)),
    timeTerms(['red cross'], 20, (term) => before(term)),
    termMs,
  );

  const pages = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
  for (const [label, filters] of [
    ['no filter', () => ({})],
    ['genre', (i: number) => ({ genre: genreAt(i) })],
    ['charity EIN', () => ({ charityEin: BENCH_EIN })],
    ['genre + EIN', (i: number) => ({ genre: genreAt(i), charityEin: BENCH_EIN })],
  ] as const) {
    printRow(
      `recent fundraisers (no term), ${label}, pages 0-9`,
      timeTerms(pages, 20, (page, i) => search('', filters(i), Number(page))),
      timeTerms(pages, 5, (page, i) => before('', filters(i), Number(page))),
      recentMs,
    );
  }
}
