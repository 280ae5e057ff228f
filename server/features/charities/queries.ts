import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charities, settings } from '../../db/schema';

export type CharityRow = typeof charities.$inferSelect;

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

type CharitySource = CharityRow['source'];

/** One directory entry as it is written: every column given, so one prepared statement fits all. */
export type CharityEntry = {
  ein: string;
  name: string;
  city?: string;
  state?: string;
  websiteUrl?: string | null;
  logoUrl?: string | null;
  /** JSON array of cause tags. */
  tags?: string;
  source: CharitySource;
};

// In ON CONFLICT DO UPDATE: the stored row's column, and the value that was being inserted.
const stored = (column: string) => sql.raw(`"charities"."${column}"`);
const incoming = (column: string) => sql.raw(`excluded."${column}"`);
/** The incoming value unless it is blank (`blank`), else the stored one. */
const incomingUnless = (column: string, blank = "''") =>
  sql`coalesce(nullif(${incoming(column)}, ${sql.raw(blank)}), ${stored(column)})`;
/**
 * How far a source is trusted: the bundled list is curated by hand, Every.org's answers are
 * maintained by a charity directory, an IRS extract has capitalised names and no website.
 */
const trust = (source: SQL) => sql`(CASE ${source} WHEN 'bundled' THEN 2 WHEN 'every.org' THEN 1 ELSE 0 END)`;
/** The incoming source is trusted at least as much as the stored one: it may refresh the entry. */
const incomingWins = sql`${trust(incoming('source'))} >= ${trust(stored('source'))}`;
const refreshed = (column: string, blank?: string) =>
  sql`CASE WHEN ${incomingWins} THEN ${incomingUnless(column, blank)} ELSE ${stored(column)} END`;

function prepareUpsert(db: Db) {
  return db
    .insert(charities)
    .values({
      ein: sql.placeholder('ein'),
      name: sql.placeholder('name'),
      city: sql.placeholder('city'),
      state: sql.placeholder('state'),
      websiteUrl: sql.placeholder('websiteUrl'),
      logoUrl: sql.placeholder('logoUrl'),
      tags: sql.placeholder('tags'),
      source: sql.placeholder('source'),
      updatedAt: sql`(unixepoch('subsec') * 1000)`,
    })
    .onConflictDoUpdate({
      target: charities.ein,
      set: {
        name: refreshed('name'),
        city: refreshed('city'),
        state: refreshed('state'),
        websiteUrl: refreshed('website_url'),
        tags: refreshed('tags', "'[]'"),
        // A logo is kept whoever brings it: the bundled list and IRS files have none of their own.
        logoUrl: sql`CASE WHEN ${incomingWins} THEN ${incomingUnless('logo_url')}
          ELSE coalesce(${stored('logo_url')}, ${incoming('logo_url')}) END`,
        source: sql`CASE WHEN ${incomingWins} THEN ${incoming('source')} ELSE ${stored('source')} END`,
        updatedAt: sql`(unixepoch('subsec') * 1000)`,
      },
      // A less trusted source leaves the entry alone (its time included), unless it brings a logo.
      setWhere: sql`${incomingWins} OR (${stored('logo_url')} IS NULL AND ${incoming('logo_url')} IS NOT NULL)`,
    })
    .prepare();
}

const upserts = new WeakMap<Db, ReturnType<typeof prepareUpsert>>();

/**
 * Puts charities in the directory, in one transaction, whoever found them: the bundled list at
 * every start, Every.org's answers as they come, an IRS file's batches. An entry already there is
 * refreshed only by a source trusted at least as much (`trust`), and never with blanks: one
 * answer may carry less than another (Every.org's search hits have no tag titles, lookups no
 * matched terms), and what an earlier one told stays true. So a bundled entry keeps its curated
 * name, place, website and tags, gaining only a logo it lacks, and an IRS file refreshes only what
 * an IRS file put there.
 */
export function upsertCharities(db: Db, entries: CharityEntry[]) {
  let upsert = upserts.get(db);
  if (!upsert) upserts.set(db, (upsert = prepareUpsert(db)));
  const statement = upsert;
  db.transaction(() => {
    for (const entry of entries) {
      statement.run({
        ein: entry.ein,
        name: entry.name,
        city: entry.city ?? '',
        state: entry.state ?? '',
        websiteUrl: entry.websiteUrl ?? null,
        logoUrl: entry.logoUrl ?? null,
        tags: entry.tags ?? '[]',
        source: entry.source,
      });
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
