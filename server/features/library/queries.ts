import { and, asc, count, countDistinct, desc, eq, isNull, max, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { artists, fundraisers, fundraiserTracks, purchases } from '../../db/schema';

// Your music (spec part 1 section 2): the albums a user owns or bought, and one album with its
// tracks. A deleted fundraiser leaves its owner's list, as every other list, but bought music is
// the fan's to keep: purchases and the album lookup include deleted fundraisers, and the album's
// access is canStream's to decide (server/access/can-stream.ts).

const live = isNull(fundraisers.deletedAt);

const albumColumns = {
  id: fundraisers.id,
  userId: fundraisers.userId,
  urlSlug: fundraisers.urlSlug,
  name: fundraisers.name,
  albumCoverId: fundraisers.albumCoverId,
  status: fundraisers.status,
  hasV1Tracks: fundraisers.hasV1Tracks,
  tracksZipUploadId: fundraisers.tracksZipUploadId,
  publishedAt: fundraisers.publishedAt,
  createdAt: fundraisers.createdAt,
  deletedAt: fundraisers.deletedAt,
  artistId: artists.id,
  artistName: artists.name,
  artistSlug: artists.urlSlug,
  artistDeletedAt: artists.deletedAt,
};

export type AlbumRow = {
  id: number;
  userId: number;
  urlSlug: string | null;
  name: string;
  albumCoverId: string | null;
  status: 'DRAFT' | 'PUBLISHED';
  hasV1Tracks: boolean;
  tracksZipUploadId: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  deletedAt: Date | null;
  artistId: number;
  artistName: string;
  artistSlug: string;
  artistDeletedAt: Date | null;
};

export type Paged<T> = { results: T[]; totalCount: number };

/** The date a user's own album is listed under: when it went public, or was started (a draft). */
const ownAlbumDate = sql`coalesce(${fundraisers.publishedAt}, ${fundraisers.createdAt})`;

/** The user's own fundraisers' albums, drafts included, newest first. */
export function listOwnAlbums(db: Db, userId: number, limit: number, offset: number): Paged<AlbumRow> {
  const where = and(eq(fundraisers.userId, userId), live);
  const results = db
    .select(albumColumns)
    .from(fundraisers)
    .innerJoin(artists, eq(artists.id, fundraisers.artistId))
    .where(where)
    .orderBy(desc(ownAlbumDate), desc(fundraisers.id))
    .limit(limit)
    .offset(offset)
    .all();
  const [total] = db.select({ n: count() }).from(fundraisers).where(where).all();
  return { results, totalCount: total?.n ?? 0 };
}

/**
 * Purchases for this address that stand (not refunded), compared without case as in hasBought
 * (server/access/can-stream.ts); the expression matches the index purchases_email_idx.
 */
const boughtBy = (email: string): SQL | undefined =>
  and(eq(sql`lower(${purchases.email})`, email.toLowerCase()), isNull(purchases.revokedAt));

/** Albums bought with this email address, one per album, the latest purchase first; deleted ones too. */
export function listPurchasedAlbums(
  db: Db,
  email: string,
  limit: number,
  offset: number,
): Paged<AlbumRow & { boughtAt: Date }> {
  const where = boughtBy(email);
  const boughtAt = max(purchases.createdAt);
  const rows = db
    .select({ ...albumColumns, boughtAt })
    .from(purchases)
    .innerJoin(fundraisers, eq(fundraisers.id, purchases.fundraiserId))
    .innerJoin(artists, eq(artists.id, fundraisers.artistId))
    .where(where)
    .groupBy(fundraisers.id)
    .orderBy(desc(boughtAt), desc(fundraisers.id))
    .limit(limit)
    .offset(offset)
    .all();
  const [total] = db
    .select({ n: countDistinct(purchases.fundraiserId) })
    .from(purchases)
    .innerJoin(fundraisers, eq(fundraisers.id, purchases.fundraiserId))
    .where(where)
    .all();
  // max() of a grouped, non-empty set is never null; the fallback only satisfies the type.
  const results = rows.map((row) => ({ ...row, boughtAt: row.boughtAt ?? row.createdAt }));
  return { results, totalCount: total?.n ?? 0 };
}

/**
 * The album by id or slug, deleted or not. A slug names one fundraiser for good: it is unique
 * over all rows and a deleted fundraiser keeps its own (fundraisers' isSlugTaken), so a slug
 * never finds a live album and a deleted one at once.
 */
export function findAlbum(db: Db, by: { id: number } | { slug: string }): AlbumRow | undefined {
  const match = 'id' in by ? eq(fundraisers.id, by.id) : eq(fundraisers.urlSlug, by.slug);
  return db
    .select(albumColumns)
    .from(fundraisers)
    .innerJoin(artists, eq(artists.id, fundraisers.artistId))
    .where(match)
    .get();
}

export function listAlbumTracks(db: Db, fundraiserId: number) {
  return db
    .select({
      id: fundraiserTracks.id,
      name: fundraiserTracks.name,
      uploadId: fundraiserTracks.uploadId,
      status: fundraiserTracks.status,
      durationSeconds: fundraiserTracks.durationSeconds,
      loudnessLufs: fundraiserTracks.loudnessLufs,
      streamFile: fundraiserTracks.streamFile,
    })
    .from(fundraiserTracks)
    .where(eq(fundraiserTracks.fundraiserId, fundraiserId))
    .orderBy(asc(fundraiserTracks.position))
    .all();
}
