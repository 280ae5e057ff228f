import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { artists, fundraisers } from '../../db/schema';

export type ArtistRow = typeof artists.$inferSelect;

const live = isNull(artists.deletedAt);

export function insertArtist(db: Db, values: typeof artists.$inferInsert): ArtistRow {
  return db.insert(artists).values(values).returning().get();
}

export function findArtistById(db: Db, id: number): ArtistRow | undefined {
  return db
    .select()
    .from(artists)
    .where(and(eq(artists.id, id), live))
    .get();
}

export function findArtistBySlug(db: Db, slug: string): ArtistRow | undefined {
  return db
    .select()
    .from(artists)
    .where(and(eq(artists.urlSlug, slug), live))
    .get();
}

/** Slugs stay reserved after a soft delete, so an old link never points at someone new. */
export function isSlugTaken(db: Db, slug: string, exceptId?: number): boolean {
  const row = db.select({ id: artists.id }).from(artists).where(eq(artists.urlSlug, slug)).get();
  return row !== undefined && row.id !== exceptId;
}

export function listUserArtists(db: Db, userId: number): ArtistRow[] {
  return db
    .select()
    .from(artists)
    .where(and(eq(artists.userId, userId), live))
    .orderBy(desc(artists.createdAt), desc(artists.id))
    .all();
}

/**
 * Changes an artist only if it is still there and the caller may change it: the owner, or anyone
 * when `asAdmin` (ownership is checked in the query itself, STYLE.md rule 5).
 */
export function updateOwnArtist(
  db: Db,
  id: number,
  userId: number,
  asAdmin: boolean,
  values: Partial<typeof artists.$inferInsert>,
): ArtistRow | undefined {
  const owner = asAdmin ? undefined : eq(artists.userId, userId);
  return db
    .update(artists)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(artists.id, id), live, owner))
    .returning()
    .get();
}

const published = and(eq(artists.status, 'PUBLISHED'), live);

/** Published artists, newest first: the browse page with no search term. */
export function recentArtists(db: Db, limit: number, offset: number) {
  const results = db
    .select()
    .from(artists)
    .where(published)
    .orderBy(desc(artists.publishedAt), desc(artists.id))
    .limit(limit)
    .offset(offset)
    .all();
  const [total] = db.select({ n: count() }).from(artists).where(published).all();
  return { results, totalCount: total?.n ?? 0 };
}

/**
 * Published artists matching an FTS5 query, best first. The index holds only published, live
 * artists (drizzle/0002), so ranking and counting never leave FTS5.
 */
export function searchArtists(db: Db, match: string, limit: number, offset: number) {
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

/** An artist's fundraisers go with it, as soft deletes: their donations stay on record. */
export function deleteArtistFundraisers(db: Db, artistId: number, at: Date) {
  db.update(fundraisers)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(fundraisers.artistId, artistId), isNull(fundraisers.deletedAt)))
    .run();
}
