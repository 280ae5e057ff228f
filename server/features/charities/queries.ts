import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charities } from '../../db/schema';

export type CharityRow = typeof charities.$inferSelect;

export function findCharity(db: Db, ein: string): CharityRow | undefined {
  return db.select().from(charities).where(eq(charities.ein, ein)).get();
}

/** Inserts or refreshes charities by EIN. */
export function upsertCharities(db: Db, rows: (typeof charities.$inferInsert)[]) {
  for (const row of rows) {
    db.insert(charities)
      .values(row)
      .onConflictDoUpdate({
        target: charities.ein,
        set: { name: row.name, city: row.city, state: row.state, source: row.source, updatedAt: new Date() },
      })
      .run();
  }
}

/** Charities whose name or city matches an FTS5 query, best first. */
export function searchCharities(db: Db, match: string, limit: number): CharityRow[] {
  const rowids = db
    .all<{ id: number }>(
      sql`SELECT rowid AS id FROM charities_fts WHERE charities_fts MATCH ${match} ORDER BY rank LIMIT ${limit}`,
    )
    .map((row) => row.id);
  if (rowids.length === 0) return [];
  const rows = db
    .select({ rowid: sql<number>`rowid`, charity: charities })
    .from(charities)
    .where(inArray(sql`rowid`, rowids))
    .all();
  const byRowid = new Map(rows.map((row) => [row.rowid, row.charity]));
  return rowids.flatMap((rowid) => byRowid.get(rowid) ?? []);
}
