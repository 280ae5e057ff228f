import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countUpToCap, rankedPage } from '../../infra/full-text';
import { preparedQuery } from '../../db/prepared';
import {
  donations,
  featuredFundraisers,
  fundraiserDailyCounts,
  fundraisers,
  fundraiserSlugHistory,
  fundraiserTracks,
} from '../../db/schema';

// The fundraisers feature's tables: fundraisers, their tracks, former slugs and the featured list.
// Artists and charities are other features' (asked through their services); donations are read
// here for totals and the donor list until the donations feature owns them (docs/architecture.md).

export type FundraiserRow = typeof fundraisers.$inferSelect;
export type TrackRow = typeof fundraiserTracks.$inferSelect;

const live = isNull(fundraisers.deletedAt);
const published = and(eq(fundraisers.status, 'PUBLISHED'), live);

export function insertFundraiser(db: Db, values: typeof fundraisers.$inferInsert): FundraiserRow {
  return db.insert(fundraisers).values(values).returning().get();
}

/** The fundraiser imported from an old catalogue's row `externalId`, deleted or not. */
export function findFundraiserByLegacyExternalId(db: Db, externalId: string): FundraiserRow | undefined {
  return db.select().from(fundraisers).where(eq(fundraisers.legacyExternalId, externalId)).get();
}

// A fundraiser's page asks these on every visit: prepared once (server/db/prepared.ts).
const byId = preparedQuery((db) =>
  db
    .select()
    .from(fundraisers)
    .where(and(eq(fundraisers.id, sql.placeholder('id')), live))
    .prepare(),
);
const bySlug = preparedQuery((db) =>
  db
    .select()
    .from(fundraisers)
    .where(and(eq(fundraisers.urlSlug, sql.placeholder('slug')), live))
    .prepare(),
);
const tracksOf = preparedQuery((db) =>
  db
    .select()
    .from(fundraiserTracks)
    .where(eq(fundraiserTracks.fundraiserId, sql.placeholder('id')))
    .orderBy(asc(fundraiserTracks.position))
    .prepare(),
);
const countOf = preparedQuery((db) =>
  db
    .select({ n: count() })
    .from(donations)
    .where(and(eq(donations.fundraiserId, sql.placeholder('id')), eq(donations.status, 'succeeded')))
    .prepare(),
);

export function findFundraiserById(db: Db, id: number): FundraiserRow | undefined {
  return byId(db).get({ id });
}

/** Deleted ones too: their buyers keep the music (server/access/can-stream.ts). */
export function findFundraiserIncludingDeleted(db: Db, id: number): FundraiserRow | undefined {
  return db.select().from(fundraisers).where(eq(fundraisers.id, id)).get();
}

export function findFundraiserBySlug(db: Db, slug: string): FundraiserRow | undefined {
  return bySlug(db).get({ slug });
}

/** The fundraiser a former slug belonged to (renamed drafts keep their invite links), deleted or not. */
export function findFundraiserIdBySlugHistory(db: Db, slug: string): number | undefined {
  return db
    .select({ id: fundraiserSlugHistory.fundraiserId })
    .from(fundraiserSlugHistory)
    .where(eq(fundraiserSlugHistory.slug, slug))
    .get()?.id;
}

/**
 * Slugs stay reserved after a soft delete and after a rename, so an old link never points at
 * someone new. A slug the fundraiser itself had before is free for it to take back.
 */
export function isSlugTaken(db: Db, slug: string, exceptId?: number): boolean {
  const row = db.select({ id: fundraisers.id }).from(fundraisers).where(eq(fundraisers.urlSlug, slug)).get();
  if (row !== undefined && row.id !== exceptId) return true;
  const former = findFundraiserIdBySlugHistory(db, slug);
  return former !== undefined && former !== exceptId;
}

/** Keeps a slug the fundraiser is leaving, so links made with it still find it. */
export function rememberFormerSlug(db: Db, fundraiserId: number, slug: string) {
  db.insert(fundraiserSlugHistory)
    .values({ slug, fundraiserId })
    .onConflictDoUpdate({ target: fundraiserSlugHistory.slug, set: { fundraiserId } })
    .run();
}

/** A slug taken back by its fundraiser is a current slug again, not a former one. */
export function forgetFormerSlug(db: Db, slug: string) {
  db.delete(fundraiserSlugHistory).where(eq(fundraiserSlugHistory.slug, slug)).run();
}

/** Soft-deletes an artist's fundraisers (the artist is going): their donations stay on record. */
export function softDeleteArtistFundraisers(db: Db, artistId: number, at: Date) {
  db.update(fundraisers)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(fundraisers.artistId, artistId), live))
    .run();
}

/** Soft-deletes every fundraiser of a user (their account is being deleted). */
export function softDeleteUserFundraisers(db: Db, userId: number, at: Date) {
  db.update(fundraisers)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(fundraisers.userId, userId), live))
    .run();
}

/**
 * Changes a fundraiser only if it is still there and the caller may change it: the owner, or
 * anyone when `asAdmin` (ownership is checked in the query itself, STYLE.md rule 5). An edit by
 * a non-admin also needs the fundraiser to be a draft at that moment (`draftsOnly`), so an edit
 * racing a publish cannot land on the published fundraiser.
 */
export function updateOwnFundraiser(
  db: Db,
  id: number,
  owner: { userId: number; asAdmin: boolean; draftsOnly?: boolean },
  values: Partial<typeof fundraisers.$inferInsert>,
): FundraiserRow | undefined {
  const ownerCheck = owner.asAdmin ? undefined : eq(fundraisers.userId, owner.userId);
  const draftCheck = owner.draftsOnly && !owner.asAdmin ? eq(fundraisers.status, 'DRAFT') : undefined;
  return db
    .update(fundraisers)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(fundraisers.id, id), live, ownerCheck, draftCheck))
    .returning()
    .get();
}

export function listTracks(db: Db, fundraiserIds: number[]): TrackRow[] {
  if (fundraiserIds.length === 0) return [];
  if (fundraiserIds.length === 1) return tracksOf(db).all({ id: fundraiserIds[0] });
  return db
    .select()
    .from(fundraiserTracks)
    .where(inArray(fundraiserTracks.fundraiserId, fundraiserIds))
    .orderBy(asc(fundraiserTracks.fundraiserId), asc(fundraiserTracks.position))
    .all();
}

/**
 * Replaces a fundraiser's track list. Tracks that keep their id and upload keep their row (and
 * their renditions); the rest are removed. Answers the new rows and the removed ones, for the
 * track pipeline to process and clean up.
 */
export function replaceTracks(
  db: Db,
  fundraiserId: number,
  tracks: { id?: number; name: string; uploadId: string | null; status?: TrackRow['status'] }[],
): { added: { id: number; uploadId: string | null }[]; removed: TrackRow[] } {
  const existing = new Map(listTracks(db, [fundraiserId]).map((track) => [track.id, track]));
  const kept = new Set<number>();
  const added: { id: number; uploadId: string | null }[] = [];
  tracks.forEach((track, position) => {
    const current = track.id === undefined ? undefined : existing.get(track.id);
    if (current && current.uploadId === track.uploadId && !kept.has(current.id)) {
      kept.add(current.id);
      db.update(fundraiserTracks).set({ name: track.name, position }).where(eq(fundraiserTracks.id, current.id)).run();
      return;
    }
    const inserted = db
      .insert(fundraiserTracks)
      .values({
        fundraiserId,
        position,
        name: track.name,
        uploadId: track.uploadId,
        status: track.status ?? 'processing',
      })
      .returning({ id: fundraiserTracks.id, uploadId: fundraiserTracks.uploadId })
      .get();
    kept.add(inserted.id);
    added.push(inserted);
  });
  const removed = [...existing.values()].filter((track) => !kept.has(track.id));
  if (removed.length) {
    db.delete(fundraiserTracks)
      .where(
        inArray(
          fundraiserTracks.id,
          removed.map((track) => track.id),
        ),
      )
      .run();
  }
  return { added, removed };
}

/** How many donations each fundraiser has that stand (not refunded); what they raised is the journal's. */
export function donationCounts(db: Db, ids: number[]) {
  if (ids.length === 0) return new Map<number, number>();
  if (ids.length === 1) return new Map([[ids[0]!, countOf(db).get({ id: ids[0] })?.n ?? 0]]);
  const rows = db
    .select({ id: donations.fundraiserId, n: count() })
    .from(donations)
    .where(and(inArray(donations.fundraiserId, ids), eq(donations.status, 'succeeded')))
    .groupBy(donations.fundraiserId)
    .all();
  return new Map(rows.map((row) => [row.id!, row.n]));
}

export function listUserFundraisers(db: Db, userId: number): FundraiserRow[] {
  return db
    .select()
    .from(fundraisers)
    .where(and(eq(fundraisers.userId, userId), live))
    .orderBy(desc(fundraisers.createdAt), desc(fundraisers.id))
    .all();
}

export function listArtistFundraisers(db: Db, artistId: number): FundraiserRow[] {
  return db
    .select()
    .from(fundraisers)
    .where(and(eq(fundraisers.artistId, artistId), published))
    .orderBy(desc(fundraisers.publishedAt), desc(fundraisers.id))
    .all();
}

/** The admins' featured list, in their order, keeping only what is public now. */
export function listFeatured(db: Db): FundraiserRow[] {
  return db
    .select({ fundraiser: fundraisers })
    .from(featuredFundraisers)
    .innerJoin(fundraisers, eq(fundraisers.id, featuredFundraisers.fundraiserId))
    .where(published)
    .orderBy(asc(featuredFundraisers.position))
    .all()
    .map((row) => row.fundraiser);
}

export function replaceFeatured(db: Db, ids: number[]) {
  db.delete(featuredFundraisers).run();
  if (ids.length) {
    db.insert(featuredFundraisers)
      .values(ids.map((fundraiserId, position) => ({ fundraiserId, position })))
      .run();
  }
}

type Filters = { genre?: string; charityEin?: string };

const publicRow = sql`status = 'PUBLISHED' AND deleted_at IS NULL`;

/**
 * (published_at, id) of the public fundraisers the browse filters keep, newest first once
 * ordered, from one of the composite indexes alone (drizzle/0013): by charity (the genres are in
 * that index too), or by genre as a merge of the primary and secondary genre's indexes. Written as
 * SQL rather than with `or()`, which SQLite answers by walking the newest fundraisers and reading
 * each row. With `distinct` false, a fundraiser whose two genres are the same comes twice:
 * harmless in `IN`, and no merge to pay for.
 */
function filtered({ genre, charityEin }: Filters, distinct = true): SQL {
  if (charityEin) {
    const genreToo = genre ? sql` AND (genre = ${genre} OR genre_secondary = ${genre})` : sql``;
    return sql`SELECT published_at, id FROM fundraisers WHERE charity_ein = ${charityEin}${genreToo} AND ${publicRow}`;
  }
  if (genre) {
    return sql`SELECT published_at, id FROM fundraisers WHERE genre = ${genre} AND ${publicRow}
      ${distinct ? sql`UNION` : sql`UNION ALL`}
      SELECT published_at, id FROM fundraisers WHERE genre_secondary = ${genre} AND ${publicRow}`;
  }
  return sql`SELECT published_at, id FROM fundraisers WHERE ${publicRow}`;
}

/**
 * Published fundraisers, newest first: the browse page with no search term. The total stops at
 * SEARCH_RESULT_CAP (infra/full-text.ts) like a search's; the pages past it are still served.
 */
export function recentFundraisers(db: Db, filters: Filters, limit: number, offset: number) {
  const newestFirst = sql`${filtered(filters)} ORDER BY published_at DESC, id DESC`;
  const ids = db.all<{ id: number }>(sql`${newestFirst} LIMIT ${limit} OFFSET ${offset}`).map((row) => row.id);
  const total = countUpToCap(db, newestFirst);
  return { results: rowsInOrder(db, ids), totalCount: total.totalCount, totalCountCapped: total.capped };
}

/**
 * Published fundraisers matching an FTS5 query, best first, the total capped at
 * SEARCH_RESULT_CAP (infra/full-text.ts). The index holds only public rows (drizzle/0007), so
 * filters are the only reason to look at the table, and then only at the filters' indexes.
 */
export function searchFundraisers(db: Db, match: string, filters: Filters, limit: number, offset: number) {
  const within =
    filters.genre || filters.charityEin ? sql`+rowid IN (SELECT id FROM (${filtered(filters, false)}))` : undefined;
  const page = rankedPage(db, 'fundraisers_fts', match, within, limit, offset);
  return { results: rowsInOrder(db, page.ids), totalCount: page.totalCount, totalCountCapped: page.capped };
}

function rowsInOrder(db: Db, ids: number[]): FundraiserRow[] {
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

/** Succeeded donations to one fundraiser, newest first. */
export function listDonations(db: Db, fundraiserId: number, limit: number, offset: number) {
  const where = and(eq(donations.fundraiserId, fundraiserId), eq(donations.status, 'succeeded'));
  const results = db
    .select()
    .from(donations)
    .where(where)
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(limit)
    .offset(offset)
    .all();
  const [total] = db.select({ n: count() }).from(donations).where(where).all();
  return { results, totalCount: total?.n ?? 0 };
}

/**
 * Completed shares by fundraiser (issue 28): the sharing feature counts them per day in
 * fundraiser_daily_counts, a table no public page is made from, so a share empties no cache; the
 * fundraiser's own share_count column holds what was counted before (imported fundraisers).
 */
export function sharesCounted(db: Db, ids: number[]): Map<number, number> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ id: fundraiserDailyCounts.fundraiserId, n: sql<number>`sum(${fundraiserDailyCounts.count})` })
    .from(fundraiserDailyCounts)
    .where(and(inArray(fundraiserDailyCounts.fundraiserId, ids), eq(fundraiserDailyCounts.kind, 'share')))
    .groupBy(fundraiserDailyCounts.fundraiserId)
    .all();
  return new Map(rows.map((row) => [row.id, row.n]));
}

/** The donations to a fundraiser that began at its embedded player and stand (not refunded). */
export function embedDonationIds(db: Db, fundraiserId: number): number[] {
  return db
    .select({ id: donations.id })
    .from(donations)
    .where(
      and(eq(donations.fundraiserId, fundraiserId), eq(donations.source, 'embed'), eq(donations.status, 'succeeded')),
    )
    .all()
    .map((row) => row.id);
}
