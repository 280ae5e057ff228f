import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charities, settings } from '../../db/schema';

export type CharityRow = typeof charities.$inferSelect;
type CharityInsert = typeof charities.$inferInsert;

export function findCharity(db: Db, ein: string): CharityRow | undefined {
  return db.select().from(charities).where(eq(charities.ein, ein)).get();
}

/** The charities with these EINs, in the order asked; EINs not in the directory are left out. */
export function findCharities(db: Db, eins: string[]): CharityRow[] {
  if (eins.length === 0) return [];
  const rows = db.select().from(charities).where(inArray(charities.ein, eins)).all();
  const byEin = new Map(rows.map((row) => [row.ein, row]));
  return eins.flatMap((ein) => byEin.get(ein) ?? []);
}

// In ON CONFLICT DO UPDATE: the stored row's column, and the value that was being inserted.
const stored = (column: string) => sql.raw(`"charities"."${column}"`);
const incoming = (column: string) => sql.raw(`excluded."${column}"`);
/** The incoming value unless it is blank (`blank`), else the stored one. */
const incomingUnless = (column: string, blank = "''") =>
  sql`coalesce(nullif(${incoming(column)}, ${sql.raw(blank)}), ${stored(column)})`;
const isBundled = sql`${stored('source')} = 'bundled'`;

/**
 * Puts the bundled list in the directory, refreshing every curated field. A logo cached from
 * Every.org stays: the bundled list has none of its own.
 */
export function upsertBundledCharities(db: Db, rows: (CharityInsert & { source: 'bundled' })[]) {
  db.transaction((tx) => {
    for (const row of rows) {
      tx.insert(charities)
        .values(row)
        .onConflictDoUpdate({
          target: charities.ein,
          set: {
            name: row.name,
            city: row.city,
            state: row.state,
            websiteUrl: row.websiteUrl,
            tags: row.tags,
            logoUrl: incomingUnless('logo_url'),
            source: 'bundled',
            updatedAt: new Date(),
          },
        })
        .run();
    }
  });
}

/**
 * Caches charities Every.org answered with. A bundled entry keeps its curated name, place,
 * website and tags, and only gains a logo it lacks. Other entries are refreshed, but never with
 * blanks: one Every.org answer may carry less than another (search hits have no tag titles,
 * lookups no matched terms), and what an earlier answer told stays true.
 */
export function cacheRemoteCharities(db: Db, rows: (CharityInsert & { source: 'every.org' })[]) {
  const unlessCurated = (column: string, blank?: string) =>
    sql`CASE WHEN ${isBundled} THEN ${stored(column)} ELSE ${incomingUnless(column, blank)} END`;
  db.transaction((tx) => {
    for (const row of rows) {
      tx.insert(charities)
        .values(row)
        .onConflictDoUpdate({
          target: charities.ein,
          set: {
            name: unlessCurated('name'),
            city: unlessCurated('city'),
            state: unlessCurated('state'),
            websiteUrl: unlessCurated('website_url'),
            tags: unlessCurated('tags', "'[]'"),
            logoUrl: sql`CASE WHEN ${isBundled} THEN coalesce(${stored('logo_url')}, ${incoming('logo_url')})
              ELSE ${incomingUnless('logo_url')} END`,
            source: sql`CASE WHEN ${isBundled} THEN 'bundled' ELSE 'every.org' END`,
            updatedAt: new Date(),
          },
        })
        .run();
    }
  });
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

const FEATURED_KEY = 'featured-charity-eins';

/** The admins' featured EINs, or null when never set. */
export function readFeaturedEins(db: Db): string[] | null {
  const row = db.select().from(settings).where(eq(settings.key, FEATURED_KEY)).get();
  if (!row) return null;
  const value: unknown = JSON.parse(row.value);
  return Array.isArray(value) ? value.filter((ein): ein is string => typeof ein === 'string') : null;
}

export function writeFeaturedEins(db: Db, eins: string[]) {
  const value = JSON.stringify(eins);
  db.insert(settings)
    .values({ key: FEATURED_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
    .run();
}
