import { and, eq, inArray, isNotNull, lt, notInArray, sum } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { artists, fundraisers, fundraiserTracks, uploads } from '../../db/schema';
import type { MediaStore } from './media';

// The uploads table: shared by every feature that takes files (artists, fundraisers). Whether an
// upload is still needed is read straight from the columns that refer to uploads, in the same
// statement that deletes it: asking each feature in turn could not be atomic, and a file taken up
// meanwhile would be lost (one of the sanctioned cross-owner reads in docs/architecture.md).

/**
 * How long an upload may wait to be saved into something (issue 9: an hour, not a day, so the
 * pending quota frees up soon and the disk cannot be filled a day at a time).
 */
export const UNUSED_UPLOAD_TTL_MS = 60 * 60 * 1000;

export type UploadKind = 'image' | 'track' | 'zip';

export function insertUpload(db: Db, values: typeof uploads.$inferInsert) {
  db.insert(uploads).values(values).run();
}

/**
 * Whether `userId` may save upload `id` into something as a `kind` now. 'gone' (spec part 1
 * section 8, FILE_NO_LONGER_AVAILABLE) when there is no such upload of theirs: never made, made
 * by someone else (to them it does not exist, and we say no more), removed, or expired: older
 * than UNUSED_UPLOAD_TTL_MS with nothing referring to it, which cleanup may remove at any moment.
 * Expiry is judged here by the same rule cleanup uses, so the answer does not depend on whether
 * cleanup has run yet. 'wrong-kind' when it is theirs but not a `kind` (a client's mistake).
 */
export function savableUpload(
  db: Db,
  id: string,
  userId: number,
  kind: UploadKind,
  now = Date.now(),
): 'ok' | 'gone' | 'wrong-kind' {
  const upload = findUpload(db, id);
  if (!upload || upload.userId !== userId) return 'gone';
  if (upload.kind !== kind) return 'wrong-kind';
  if (upload.createdAt.getTime() >= now - UNUSED_UPLOAD_TTL_MS) return 'ok';
  const referenced = db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, id), inArray(uploads.id, referencedUploadIds(db))))
    .get();
  return referenced ? 'ok' : 'gone';
}

/** Every upload id some record refers to; each table that takes uploads adds its columns here. */
function referencedUploadIds(db: Db) {
  return unionAll(
    db.select({ id: artists.profileImageId }).from(artists).where(isNotNull(artists.profileImageId)),
    db.select({ id: fundraisers.albumCoverId }).from(fundraisers).where(isNotNull(fundraisers.albumCoverId)),
    db
      .select({ id: fundraisers.previewTrackUploadId })
      .from(fundraisers)
      .where(isNotNull(fundraisers.previewTrackUploadId)),
    db.select({ id: fundraisers.tracksZipUploadId }).from(fundraisers).where(isNotNull(fundraisers.tracksZipUploadId)),
    db.select({ id: fundraiserTracks.uploadId }).from(fundraiserTracks).where(isNotNull(fundraiserTracks.uploadId)),
  );
}

/** Uploads older than `before` that nothing refers to. */
export function findUnusedUploads(db: Db, before: Date) {
  const referenced = referencedUploadIds(db);
  return db
    .select()
    .from(uploads)
    .where(and(lt(uploads.createdAt, before), notInArray(uploads.id, referenced)))
    .all();
}

/** Bytes of this user's uploads that nothing refers to yet: files waiting to be saved into something. */
export function pendingUploadBytes(db: Db, userId: number): number {
  const row = db
    .select({ bytes: sum(uploads.bytes) })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), notInArray(uploads.id, referencedUploadIds(db))))
    .get();
  return Number(row?.bytes ?? 0);
}

/** Deletes the upload only if nothing refers to it now; true when it was deleted. */
export function deleteUploadIfUnused(db: Db, id: string): boolean {
  return (
    db
      .delete(uploads)
      .where(and(eq(uploads.id, id), notInArray(uploads.id, referencedUploadIds(db))))
      .run().changes === 1
  );
}

/** The checksum of a kept original computed after the fact, for `bytes` bytes (see uploads.crc32). */
export function recordChecksum(db: Db, id: string, crc32: number, bytes: number) {
  db.update(uploads).set({ crc32, bytes }).where(eq(uploads.id, id)).run();
}

export function findUpload(db: Db, id: string) {
  return db.select().from(uploads).where(eq(uploads.id, id)).get();
}

export function uploadExists(db: Db, id: string): boolean {
  return db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id)).get() !== undefined;
}

/** Whether a track or a fundraiser's preview track refers to this rendition file name. */
export function renditionInUse(db: Db, kind: 'stream' | 'preview', name: string): boolean {
  const track = db
    .select({ id: fundraiserTracks.id })
    .from(fundraiserTracks)
    .where(kind === 'stream' ? eq(fundraiserTracks.streamFile, name) : eq(fundraiserTracks.previewFile, name))
    .get();
  if (track) return true;
  const column = kind === 'stream' ? fundraisers.previewTrackStreamFile : fundraisers.previewTrackPreviewFile;
  return db.select({ id: fundraisers.id }).from(fundraisers).where(eq(column, name)).get() !== undefined;
}

/**
 * Every media file the database refers to: each upload's stored files, and the renditions tracks
 * and preview tracks name. What a backup must hold for its copy of the database (infra/backup.ts);
 * any other file in the media folder is a write in progress or debris.
 */
export function mediaFilesInUse(db: Db, media: MediaStore): string[] {
  const files: string[] = [];
  for (const upload of db.select({ id: uploads.id, kind: uploads.kind, format: uploads.format }).from(uploads).all()) {
    if (upload.kind === 'image') files.push(...media.imageFiles(upload.id));
    const original = media.storedOriginal(upload);
    if (original) files.push(original);
  }
  const renditions = unionAll(
    db.select({ stream: fundraiserTracks.streamFile, preview: fundraiserTracks.previewFile }).from(fundraiserTracks),
    db
      .select({ stream: fundraisers.previewTrackStreamFile, preview: fundraisers.previewTrackPreviewFile })
      .from(fundraisers),
  ).all();
  for (const { stream, preview } of renditions) {
    if (stream) files.push(media.streamFile(stream));
    if (preview) files.push(media.previewFile(preview));
  }
  return files;
}
