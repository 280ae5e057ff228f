import { imageUrl } from '../../../shared/constants';
import {
  type LibraryAlbum,
  type LibraryAlbumDetail,
  type LibraryAlbumList,
  trackUrls,
} from '../../../shared/answers/library';
import { canStream } from '../../access/can-stream';
import { notFound } from '../../errors';
import type { Deps, Session } from '../../deps';
import { renditionVersion } from '../../infra/storage/media';
import { purchasedAlbum } from '../fundraisers/album-media';
import { formerSlugOwner } from '../fundraisers/service';
import * as queries from './queries';
import type { AlbumRow } from './queries';

// Your music (spec part 1 sections 2 and 7; DESIGN.md section 4, 'library album'): the user's own
// albums, the albums bought with their verified email, and one album for those who may hear it.

export const ALBUM_NOT_FOUND = 'Album not found.';

type PageParams = { page: number; pageSize: number };

function toLibraryAlbum(row: AlbumRow, date: Date): LibraryAlbum {
  return {
    projectId: row.id,
    // The album page's address: the slug, or the id of a draft that has none yet.
    projectSlug: row.urlSlug ?? String(row.id),
    artistId: row.artistId,
    projectName: row.name,
    artistName: row.artistName,
    image: row.albumCoverId ? imageUrl(row.albumCoverId, 400, 'jpg') : undefined,
    date: date.toISOString(),
  };
}

/** GET /api/music-library/user: owners listen to their albums before publishing, so drafts count. */
export function listOwnAlbums(deps: Deps, session: Session, { page, pageSize }: PageParams): LibraryAlbumList {
  const found = queries.listOwnAlbums(deps.db, session.user.id, pageSize, page * pageSize);
  return {
    results: found.results.map((row) => toLibraryAlbum(row, row.publishedAt ?? row.createdAt)),
    totalCount: found.totalCount,
  };
}

/**
 * GET /api/music-library/purchases. Purchases belong to an email address (DESIGN.md section 3);
 * until the account proves it holds that address, anyone could have typed it at a checkout.
 * A deleted fundraiser's album stays listed: the music is the buyer's to keep.
 */
export function listPurchases(deps: Deps, session: Session, { page, pageSize }: PageParams): LibraryAlbumList {
  if (!session.user.isEmailVerified) return { results: [], totalCount: 0 };
  const found = queries.listPurchasedAlbums(deps.db, session.user.email, pageSize, page * pageSize);
  return {
    results: found.results.map((row) => toLibraryAlbum(row, row.boughtAt)),
    totalCount: found.totalCount,
  };
}

/** An album page bookmarked before its fundraiser was renamed: the answer carries the new slug. */
function findByFormerSlug(deps: Deps, by: { id: number } | { slug: string }) {
  const id = 'slug' in by ? formerSlugOwner(deps.db, by.slug) : undefined;
  return id === undefined ? undefined : queries.findAlbum(deps.db, { id });
}

/**
 * The album's fundraiser, for its download formats in Your music (issue 27): 404 to callers with
 * no access, as getAlbum.
 */
export function downloadableAlbum(deps: Deps, session: Session, id: number): ReturnType<typeof purchasedAlbum> {
  const row = queries.findAlbum(deps.db, { id });
  if (
    !row ||
    !canStream(deps.db, session.user, { fundraiserId: row.id, ownerId: row.userId, deleted: row.deletedAt !== null })
  ) {
    throw notFound(ALBUM_NOT_FOUND);
  }
  return purchasedAlbum(deps, id);
}

/**
 * GET /api/music-library/album/{id} and .../slug/{slug}: 404 for callers with no access
 * (DESIGN.md section 4), so the answer never tells whether an album they cannot hear exists.
 * A deleted fundraiser's album stays open to its buyers and admins (canStream).
 */
export function getAlbum(deps: Deps, session: Session, by: { id: number } | { slug: string }): LibraryAlbumDetail {
  const row = queries.findAlbum(deps.db, by) ?? findByFormerSlug(deps, by);
  if (!row) throw notFound(ALBUM_NOT_FOUND);
  const deleted = row.deletedAt !== null;
  if (!canStream(deps.db, session.user, { fundraiserId: row.id, ownerId: row.userId, deleted })) {
    throw notFound(ALBUM_NOT_FOUND);
  }
  const tracks = queries.listAlbumTracks(deps.db, row.id);
  // What GET /api/fundraisers/{id}/download can zip: the legacy album zip, or the tracks' originals.
  const downloadable = row.hasV1Tracks ? Boolean(row.tracksZipUploadId) : tracks.some((track) => track.uploadId);
  return {
    ...toLibraryAlbum(row, row.publishedAt ?? row.createdAt),
    // A deleted artist has no page left to link to.
    artistSlug: row.artistDeletedAt ? undefined : row.artistSlug || String(row.artistId),
    hasV1Tracks: row.hasV1Tracks,
    // A deleted fundraiser's page is gone: the album page must not link to it.
    fundraiserDeleted: deleted,
    tracksZipLink: downloadable ? `/api/fundraisers/${row.id}/download` : undefined,
    tracks: tracks.map((track, index) => ({
      id: track.id,
      name: track.name,
      index,
      // Legacy v1 tracks are names only: their music is in the album zip, not streamable.
      src:
        !row.hasV1Tracks && track.status === 'ready' && track.streamFile
          ? trackUrls.stream(track.id, renditionVersion(track.streamFile))
          : undefined,
      durationSeconds: track.durationSeconds,
      loudnessLufs: track.loudnessLufs,
      status: track.status,
    })),
  };
}
