import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_RESULT_CAP } from '../../shared/constants';
import type { Db } from '../db/client';

/**
 * Words of a search term as an FTS5 prefix query: "jaz coll" → "jaz"* "coll"*. Each word is
 * quoted, so nothing typed can act as FTS5 syntax; marks (\p{M}) stay inside words, as in "संगीत".
 * Null when the term has no words at all.
 */
export function toMatchQuery(searchTerm: string, maxWords = 16): string | null {
  const words =
    searchTerm
      .normalize('NFKC')
      .match(/[\p{L}\p{M}\p{N}]+/gu)
      ?.slice(0, maxWords) ?? [];
  return words.length ? words.map((word) => `"${word}"*`).join(' ') : null;
}

/**
 * How many rows `select` answers, counting no further than SEARCH_RESULT_CAP + 1: a list's
 * total costs what 10,000 rows cost, however many there are. `select` should stream (an index
 * read in order, or a compound SELECT with an ORDER BY its indexes give) so the LIMIT stops it.
 */
export function countUpToCap(db: Db, select: SQL): { totalCount: number; capped: boolean } {
  const [row] = db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${select} LIMIT ${SEARCH_RESULT_CAP + 1})`);
  const total = row?.n ?? 0;
  return { totalCount: Math.min(total, SEARCH_RESULT_CAP), capped: total > SEARCH_RESULT_CAP };
}

export type RankedPage = {
  /** Row ids of the page, best first. */
  ids: number[];
  /** Every match, or SEARCH_RESULT_CAP when there are more (then `capped`). */
  totalCount: number;
  capped: boolean;
};

/**
 * One page of an FTS5 table's matches, best first (its configured rank, bm25; ties newest
 * first), with their total. Ranking every match of a broad prefix is what made 'qu' cost 90 ms
 * at 100,000 rows (85,000 bm25 scores and a sort, then a second pass to count), and ten times
 * that at a million. So the matches are read newest first (rowid order, which FTS5 gives
 * without a sort) and stop at SEARCH_RESULT_CAP + 1: up to the cap, every match is ranked and
 * counted exactly, as before; past it, the page is the best of the newest SEARCH_RESULT_CAP
 * matches and the total says 'at least'. The window is materialized once, so the rank, the page
 * and the count come from one pass (the 10,001st match, read only to know there are more, is
 * left out of the ranking). `within` narrows the matches (a filter on row ids); it is
 * written `+rowid IN (...)` by the caller so SQLite checks it per match instead of asking FTS5
 * once per id.
 */
export function rankedPage(
  db: Db,
  table: 'artists_fts' | 'fundraisers_fts',
  match: string,
  within: SQL | undefined,
  limit: number,
  offset: number,
): RankedPage {
  const fts = sql.identifier(table);
  const where = within ? sql`${fts} MATCH ${match} AND ${within}` : sql`${fts} MATCH ${match}`;
  // A page past the window (or of no rows) has no row to read the total from: count on its own.
  const countOnly = () => ({ ids: [], ...countUpToCap(db, sql`SELECT 1 FROM ${fts} WHERE ${where}`) });
  if (limit === 0 || offset >= SEARCH_RESULT_CAP) return countOnly();
  const rows = db.all<{ id: number; total: number }>(sql`
    WITH matches AS MATERIALIZED (
      SELECT rowid AS id, rank AS score FROM ${fts} WHERE ${where} ORDER BY rowid DESC LIMIT ${SEARCH_RESULT_CAP + 1}
    )
    SELECT id, (SELECT count(*) FROM matches) AS total FROM matches
    WHERE id > (SELECT CASE WHEN count(*) > ${SEARCH_RESULT_CAP} THEN min(id) ELSE 0 END FROM matches)
    ORDER BY score, id DESC LIMIT ${limit} OFFSET ${offset}`);
  if (rows.length === 0) return offset === 0 ? { ids: [], totalCount: 0, capped: false } : countOnly();
  const total = rows[0]!.total;
  return {
    ids: rows.map((row) => row.id),
    totalCount: Math.min(total, SEARCH_RESULT_CAP),
    capped: total > SEARCH_RESULT_CAP,
  };
}
