import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../server/db/client';
import { artists, fundraisers } from '../server/db/schema';

// The search queries as they were before issue 13, kept as the benchmarks' baseline and run on
// the same data in the same run: every match of a term ranked and sorted, then counted in a
// second pass; the filters as `or()` and `eq()` on the newest-first index, each row read.

type Filters = { genre?: string; charityEin?: string };

const published = and(eq(fundraisers.status, 'PUBLISHED'), isNull(fundraisers.deletedAt));

function filterConditions({ genre, charityEin }: Filters): SQL[] {
  const conditions: SQL[] = [];
  if (genre) conditions.push(or(eq(fundraisers.genre, genre), eq(fundraisers.genreSecondary, genre))!);
  if (charityEin) conditions.push(eq(fundraisers.charityEin, charityEin));
  return conditions;
}

function rowsInOrder(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const byId = new Map(
    db
      .select()
      .from(fundraisers)
      .where(inArray(fundraisers.id, ids))
      .all()
      .map((row) => [row.id, row]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function previousRecentFundraisers(db: Db, filters: Filters, limit: number, offset: number) {
  const where = and(published, ...filterConditions(filters));
  const results = db
    .select()
    .from(fundraisers)
    .where(where)
    .orderBy(desc(fundraisers.publishedAt), desc(fundraisers.id))
    .limit(limit)
    .offset(offset)
    .all();
  const [total] = db.select({ n: count() }).from(fundraisers).where(where).all();
  return { results, totalCount: total?.n ?? 0 };
}

export function previousSearchFundraisers(db: Db, match: string, filters: Filters, limit: number, offset: number) {
  const conditions = filterConditions(filters);
  if (conditions.length === 0) {
    const ids = db
      .all<{ id: number }>(
        sql`SELECT rowid AS id FROM fundraisers_fts WHERE fundraisers_fts MATCH ${match} ORDER BY rank LIMIT ${limit} OFFSET ${offset}`,
      )
      .map((row) => row.id);
    const [total] = db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM fundraisers_fts WHERE fundraisers_fts MATCH ${match}`,
    );
    return { results: rowsInOrder(db, ids), totalCount: total?.n ?? 0 };
  }
  const where = and(...conditions);
  const matching = sql`SELECT rowid AS id, rank FROM fundraisers_fts WHERE fundraisers_fts MATCH ${match}`;
  const ids = db
    .all<{ id: number }>(
      sql`SELECT fundraisers.id AS id FROM (${matching}) m JOIN fundraisers ON fundraisers.id = m.id WHERE ${where} ORDER BY m.rank LIMIT ${limit} OFFSET ${offset}`,
    )
    .map((row) => row.id);
  const [total] = db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (${matching}) m JOIN fundraisers ON fundraisers.id = m.id WHERE ${where}`,
  );
  return { results: rowsInOrder(db, ids), totalCount: total?.n ?? 0 };
}

export function previousSearchArtists(db: Db, match: string, limit: number, offset: number) {
  const ids = db
    .all<{ id: number }>(
      sql`SELECT rowid AS id FROM artists_fts WHERE artists_fts MATCH ${match} ORDER BY rank LIMIT ${limit} OFFSET ${offset}`,
    )
    .map((row) => row.id);
  const [total] = db.all<{ n: number }>(sql`SELECT count(*) AS n FROM artists_fts WHERE artists_fts MATCH ${match}`);
  const rows = ids.length ? db.select().from(artists).where(inArray(artists.id, ids)).all() : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { results: ids.flatMap((id) => byId.get(id) ?? []), totalCount: total?.n ?? 0 };
}
