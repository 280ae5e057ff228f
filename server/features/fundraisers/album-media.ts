import { fundraiserMessages as say } from '../../../shared/fundraiser-messages';
import { canStream } from '../../access/can-stream';
import { grantedPurchase, requireStandingPurchase } from '../../access/url-grants';
import type { Db } from '../../db/client';
import type { CachePolicy, Deps, Session } from '../../deps';
import { forbidden, notFound } from '../../errors';
import { renditionVersion } from '../../infra/storage/media';
import { streamChecksum } from '../../infra/storage/checksum';
import { findUpload, recordChecksum } from '../../infra/storage/upload-records';
import type { ZipStreamEntry } from '../../infra/storage/zip-stream';
import { visibleOrNotFound } from './permissions';
import { streamable } from './presenter';
import * as queries from './queries';
import type { FundraiserRow } from './queries';

// A fundraiser's audio as files: the public preview track and the album download (issue 5).

export const noPreviewMessage = 'This fundraiser has no preview.';

/**
 * GET /api/fundraisers/{id}/preview, for a caller who may see the fundraiser: the preview track's
 * streaming rendition once processed, the original upload until then. `requested` is the URL's
 * `?v=`; only a match with the current rendition may be cached as immutable.
 */
export function previewTrackFile(
  deps: Deps,
  session: Session | null,
  id: number,
  requested?: string,
): CachePolicy & { path: string; format: 'wav' | 'mp3'; version: string } {
  const row = visibleOrNotFound(session, queries.findFundraiserById(deps.db, id));
  // A draft's preview is for its owner and admins: no cache may keep it.
  const cache = row.status === 'PUBLISHED' ? 'public' : 'none';
  if (row.previewTrackStatus === 'ready' && row.previewTrackStreamFile) {
    const version = renditionVersion(row.previewTrackStreamFile);
    const path = deps.media.streamFile(row.previewTrackStreamFile);
    return { path, format: 'mp3', version, cache, immutable: requested === version };
  }
  const upload = row.previewTrackUploadId ? findUpload(deps.db, row.previewTrackUploadId) : undefined;
  if (!upload || (upload.format !== 'wav' && upload.format !== 'mp3')) throw notFound(noPreviewMessage);
  return {
    path: deps.media.trackFile(upload.id, upload.format),
    format: upload.format,
    version: upload.id,
    cache,
    immutable: false,
  };
}

/** A name safe in any file system and zip tool: no separators, control or reserved characters. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return cleaned || fallback;
}

export type AlbumDownload =
  | { kind: 'zip'; fileName: string; path: string; version: string }
  | { kind: 'tracks'; fileName: string; entries: AlbumZipEntry[] };

/**
 * One original in the album zip, with what fs.stat said a moment ago (the zip's size is known up
 * front) and its CRC-32 (the zip is written without a pass over the files to checksum them).
 */
export type AlbumZipEntry = ZipStreamEntry;

export const albumFilesMissingMessage = "Some of this album's files are missing. Please contact us.";

/**
 * GET /api/fundraisers/{id}/download (the admins' 'Download tracks', Your music's 'Download songs'):
 * the fundraiser whose music this session may take home, or 403/404. Whoever may hear the full
 * tracks may take them home (canStream: owner, admins and buyers; once the fundraiser is deleted,
 * buyers and admins only).
 */
export function downloadableAlbum(deps: Deps, session: Session, id: number): FundraiserRow {
  // A deleted fundraiser's music stays its buyers' (server/access/can-stream.ts); to everyone
  // else the fundraiser is gone.
  const row = visibleOrNotFound(session, queries.findFundraiserIncludingDeleted(deps.db, id));
  if (!canStream(deps.db, session.user, streamable(row))) {
    if (row.deletedAt) throw notFound(say.notFound);
    throw forbidden('Only those who donated to this fundraiser can download its music.');
  }
  return row;
}

/**
 * The album of a purchase, for the receipt's download link (the donations feature, issue 10):
 * the link's token is the permission, checked by its caller.
 */
export function purchasedAlbum(deps: Deps, fundraiserId: number): FundraiserRow {
  const row = queries.findFundraiserIncludingDeleted(deps.db, fundraiserId);
  if (!row) throw notFound(say.notFound);
  return row;
}

export async function purchasedAlbumDownload(deps: Deps, fundraiserId: number): Promise<AlbumDownload> {
  return albumFiles(deps, purchasedAlbum(deps, fundraiserId));
}

/**
 * GET /api/fundraisers/{id}/download?grant=: the album for whoever holds a grant of it (the
 * success page's download, server/access/url-grants.ts), session or not.
 */
export function grantedAlbum(deps: Deps, id: number, grant: string): FundraiserRow {
  const purchaseId = grantedPurchase(deps.urlGrants, grant, { kind: 'album', fundraiserId: id });
  requireStandingPurchase(deps.db, purchaseId, id);
  return purchasedAlbum(deps, id);
}

/** A track a buyer can play now, with its rendition's version (what its stream URL names). */
export type StreamableTrack = { id: number; name: string; durationSeconds: number | null; version: string };

/**
 * The album's tracks that play now, in album order, for a buyer without an account (the
 * donations feature's purchase answers): a legacy v1 album has none, its music is in the zip.
 */
export function streamableTracks(db: Db, fundraiserId: number): StreamableTrack[] {
  const row = queries.findFundraiserIncludingDeleted(db, fundraiserId);
  if (!row || row.hasV1Tracks) return [];
  return queries.listTracks(db, [fundraiserId]).flatMap((track) =>
    track.status === 'ready' && track.streamFile
      ? [
          {
            id: track.id,
            name: track.name,
            durationSeconds: track.durationSeconds,
            version: renditionVersion(track.streamFile),
          },
        ]
      : [],
  );
}

/**
 * The album's files as one download: the legacy zip that was uploaded, or each track's original
 * named "NN - Track name.ext" in album order (DESIGN.md contract details). Every original must be
 * on disk before the first byte leaves: a zip that breaks off halfway looks like a network fault
 * to the buyer, while a 404 says what is wrong (and the log tells us).
 */
export async function albumFiles(deps: Deps, row: FundraiserRow): Promise<AlbumDownload> {
  const fileName = `${safeFileName(row.name, 'album')}.zip`;
  if (row.hasV1Tracks) {
    if (!row.tracksZipUploadId) throw notFound('This fundraiser has no album zip yet.');
    const upload = row.tracksZipUploadId;
    return { kind: 'zip', fileName, path: deps.media.zipFile(upload), version: upload };
  }
  const tracks = queries.listTracks(deps.db, [row.id]);
  const listed = tracks.flatMap((track, index) => {
    const upload = track.uploadId ? findUpload(deps.db, track.uploadId) : undefined;
    if (!upload || (upload.format !== 'wav' && upload.format !== 'mp3')) return [];
    const number = String(index + 1).padStart(2, '0');
    return [
      {
        upload,
        path: deps.media.trackFile(upload.id, upload.format),
        name: `${number} - ${safeFileName(track.name, `Track ${number}`)}.${upload.format}`,
      },
    ];
  });
  if (listed.length === 0) throw notFound('This fundraiser has no tracks to download yet.');
  const checked = await Promise.all(listed.map(async (entry) => ({ entry, stats: await deps.media.stat(entry.path) })));
  const found = checked.flatMap(({ entry, stats }) => (stats ? [{ ...entry, stats }] : []));
  if (found.length < listed.length) {
    const missing = checked.filter(({ stats }) => !stats).map(({ entry }) => entry.path);
    deps.logger.error({ fundraiserId: row.id, missing }, 'album download: track originals missing on disk');
    throw notFound(albumFilesMissingMessage);
  }
  const entries = await Promise.all(
    found.map(async ({ upload, path, name, stats }) => ({
      path,
      name,
      size: stats.size,
      mtime: stats.modified,
      crc32: await checksumOf(deps, upload, path, stats.size),
    })),
  );
  return { kind: 'tracks', fileName, entries };
}

/**
 * The original's CRC-32 as recorded at upload. An upload from before it was recorded, or whose
 * file is not the size recorded with it (put there by hand), is read once now and recorded, so
 * no later download reads it twice.
 */
async function checksumOf(
  deps: Deps,
  upload: { id: string; bytes: number; crc32: number | null },
  path: string,
  size: number,
): Promise<number> {
  if (upload.crc32 !== null && upload.bytes === size) return upload.crc32;
  const stored = await deps.media.read(path);
  if (!stored) throw notFound(albumFilesMissingMessage);
  const { crc32, bytes } = await streamChecksum(stored);
  recordChecksum(deps.db, upload.id, crc32, bytes);
  deps.logger.info({ uploadId: upload.id, bytes }, 'album download: recorded the checksum of an original');
  return crc32;
}
