import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countUpToCap, rankedPage } from '../../infra/full-text';
import { preparedQuery } from '../../db/prepared';
import { artists, artistSlugHistory } from '../../db/schema';

export type ArtistRow = typeof artists.$inferSelect;

const live = isNull(artists.deletedAt);

/** What a fundraiser's JSON shows of its artist. */
const summaryColumns = {
  id: artists.id,
  urlSlug: artists.urlSlug,
  name: artists.name,
  status: artists.status,
  description: artists.description,
  profileImageId: artists.profileImageId,
  userId: artists.userId,
  deletedAt: artists.deletedAt,
};

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

// An artist's page and every fundraiser's page ask these: prepared once (server/db/prepared.ts).
const bySlug = preparedQuery((db) =>
  db
    .select()
    .from(artists)
    .where(and(eq(artists.urlSlug, sql.placeholder('slug')), live))
    .prepare(),
);
const summaryById = preparedQuery((db) =>
  db
    .select(summaryColumns)
    .from(artists)
    .where(eq(artists.id, sql.placeholder('id')))
    .prepare(),
);

export function findArtistBySlug(db: Db, slug: string): ArtistRow | undefined {
  return bySlug(db).get({ slug });
}

/** The artist a former slug belonged to (a rename keeps old links working), deleted or not. */
export function findArtistIdBySlugHistory(db: Db, slug: string): number | undefined {
  return db
    .select({ id: artistSlugHistory.artistId })
    .from(artistSlugHistory)
    .where(eq(artistSlugHistory.slug, slug))
    .get()?.id;
}

/**
 * Slugs stay reserved after a soft delete and after a rename, so an old link never points at
 * someone new. A slug the artist itself had before is free for it to take back.
 */
export function isSlugTaken(db: Db, slug: string, exceptId?: number): boolean {
  const current = db.select({ id: artists.id }).from(artists).where(eq(artists.urlSlug, slug)).get();
  if (current !== undefined && current.id !== exceptId) return true;
  const former = findArtistIdBySlugHistory(db, slug);
  return former !== undefined && former !== exceptId;
}

/** Keeps a slug the artist is leaving, so links made with it find the artist (moved to its new slug). */
export function rememberFormerSlug(db: Db, artistId: number, slug: string) {
  db.insert(artistSlugHistory)
    .values({ slug, artistId })
    .onConflictDoUpdate({ target: artistSlugHistory.slug, set: { artistId } })
    .run();
}

/** A slug taken back by its artist is a current slug again, not a former one. */
export function forgetFormerSlug(db: Db, slug: string) {
  db.delete(artistSlugHistory).where(eq(artistSlugHistory.slug, slug)).run();
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

/**
 * Published artists, newest first: the browse page with no search term. The total stops at
 * SEARCH_RESULT_CAP (infra/full-text.ts) like a search's; the pages past it are still served.
 */
export function recentArtists(db: Db, limit: number, offset: number) {
  const results = db
    .select()
    .from(artists)
    .where(published)
    .orderBy(desc(artists.publishedAt), desc(artists.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = countUpToCap(db, sql`SELECT 1 FROM artists WHERE status = 'PUBLISHED' AND deleted_at IS NULL`);
  return { results, totalCount: total.totalCount, totalCountCapped: total.capped };
}

/**
 * Published artists matching an FTS5 query, best first, the total capped at SEARCH_RESULT_CAP
 * (infra/full-text.ts). The index holds only published, live artists (drizzle/0002), so ranking
 * and counting never leave FTS5.
 */
export function searchArtists(db: Db, match: string, limit: number, offset: number) {
  const page = rankedPage(db, 'artists_fts', match, undefined, limit, offset);
  const rows = page.ids.length ? db.select().from(artists).where(inArray(artists.id, page.ids)).all() : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    results: page.ids.flatMap((id) => byId.get(id) ?? []),
    totalCount: page.totalCount,
    totalCountCapped: page.capped,
  };
}

/** What other features show of an artist (a fundraiser's byline), for many artists in one query. */
export type ArtistSummary = Pick<
  ArtistRow,
  'id' | 'urlSlug' | 'name' | 'status' | 'description' | 'profileImageId' | 'userId' | 'deletedAt'
>;

export function findArtistSummaries(db: Db, ids: number[]): ArtistSummary[] {
  if (ids.length === 0) return [];
  if (ids.length === 1) return summaryById(db).all({ id: ids[0] });
  return db.select(summaryColumns).from(artists).where(inArray(artists.id, ids)).all();
}

/** Publishes a DRAFT artist (alone, or with a fundraiser in the caller's transaction). */
export function publishDraftArtist(db: Db, id: number, at: Date) {
  db.update(artists)
    .set({ status: 'PUBLISHED', publishedAt: at, updatedAt: at })
    .where(and(eq(artists.id, id), eq(artists.status, 'DRAFT'), live))
    .run();
}

/** Soft-deletes the artist; false when it was gone already. */
export function softDeleteArtist(db: Db, id: number, at: Date): boolean {
  return (
    db
      .update(artists)
      .set({ deletedAt: at, updatedAt: at })
      .where(and(eq(artists.id, id), live))
      .run().changes === 1
  );
}

/** Soft-deletes every live artist of a user (their account is being deleted). */
export function softDeleteUserArtists(db: Db, userId: number, at: Date) {
  db.update(artists)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(artists.userId, userId), live))
    .run();
}
