import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { serverMessages } from '../../../shared/api';
import { uploadMessages } from '../../../shared/schemas/uploads';
import { AppError, invalid, rateLimited, unavailable } from '../../errors';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import type { Deps, Session } from '../../deps';
import { type MediaStore, newUploadId, writerHasEnded } from '../../infra/storage/media';
import { MediaStoreError } from '../../infra/storage/objects';
import { audioFormat } from '../../infra/storage/file-types';
import { isJpegOrPng, renderImage } from './images';
import { type MultipartBody, type ReceivedFile, receiveSingleFile } from '../../infra/storage/multipart';
import * as queries from '../../infra/storage/upload-records';
import { UNUSED_UPLOAD_TTL_MS } from '../../infra/storage/upload-records';
import { transcodeFileInUse } from '../../infra/transcodes/cache';

const MB = 1024 * 1024;

/**
 * What one account may hold in uploads nothing uses yet (issue 9: one new account once stored
 * 596 MB in a second). Enough for a whole album's tracks and cover before saving it; far less
 * before the email is verified, since anyone can make accounts.
 */
export const PENDING_UPLOAD_QUOTA_BYTES = { verified: 2048 * MB, unverified: 200 * MB } as const;

/** Free bytes on the disk that holds `dir`, for unprivileged users (what our writes can use). */
async function freeDiskBytes(dir: string): Promise<number> {
  const stats = await fs.statfs(dir);
  return stats.bavail * stats.bsize;
}

/** How much an upload may write, and what to say when its stream runs past that. */
export type UploadLimit = { maxBytes: number; tooLargeMessage: string };

/**
 * Runs `use` (which reads the body) once this account and this disk have room for an upload of
 * up to `maxBytes` (the kind's own cap). `declaredBytes` is the request's Content-Length, when
 * sent. `use` gets the cap to stream with: the kind's cap, or less when the quota leaves less
 * room, with the message to give when the stream runs past it. What the upload may write is held
 * for it while `use` runs (issue 9: uploads sent at once must not all see the same room), and
 * given back afterwards, by which time its file is recorded (and counted as pending) or removed.
 */
export async function withRoomForUpload<T>(
  deps: Deps,
  session: Session,
  maxBytes: number,
  tooLargeMessage: string,
  declaredBytes: number | undefined,
  use: (limit: UploadLimit) => Promise<T>,
): Promise<T> {
  const userId = session.user.id;
  const verified = session.user.isEmailVerified;
  const quota = verified ? PENDING_UPLOAD_QUOTA_BYTES.verified : PENDING_UPLOAD_QUOTA_BYTES.unverified;
  // Checked and reserved in one transaction: no other upload, in this server process or another,
  // comes between.
  const { limit, reservation } = deps.db.transaction(() => {
    const pending = queries.pendingUploadBytes(deps.db, userId) + deps.uploadsInFlight.reservedBy(userId);
    const room = quota - pending;
    const quotaMessage = verified ? uploadMessages.quota(Math.ceil(pending / MB)) : uploadMessages.quotaUnverified;
    if (room <= 0 || (declaredBytes !== undefined && declaredBytes > room + 64 * 1024)) {
      throw new AppError('too-large', 'OTHER', quotaMessage);
    }
    const allowed: UploadLimit =
      room < maxBytes ? { maxBytes: room, tooLargeMessage: quotaMessage } : { maxBytes, tooLargeMessage };
    // A declared length bounds the body (the HTTP parser reads no further); otherwise the cap does.
    return { limit: allowed, reservation: deps.uploadsInFlight.reserve(userId, declaredBytes ?? allowed.maxBytes) };
  });
  try {
    // The disk is shared by everyone's files and the database: uploads stop well before it fills.
    // Every upload in flight counts whole, this one included (what they have written so far is
    // counted twice: the guard errs on the safe side).
    const free = await freeDiskBytes(deps.media.dirs.tmp);
    if (free - deps.uploadsInFlight.reservedTotal() < deps.config.minFreeDiskBytes) {
      deps.logger.warn(
        { freeBytes: free, inFlightBytes: deps.uploadsInFlight.reservedTotal() },
        'upload refused: low disk space',
      );
      throw unavailable(uploadMessages.lowDisk);
    }
    return await use(limit);
  } finally {
    reservation.release();
  }
}

/** Each upload costs disk and a render: plenty for building a profile, not for filling a disk. */
const imageUploadsByUser: ThrottleRule = { bucket: 'image-upload-user', limit: 60, windowMs: 60 * 60 * 1000 };

/** An album is at most 40 tracks and a preview; retries and a second album still fit. */
const trackUploadsByUser: ThrottleRule = { bucket: 'track-upload-user', limit: 200, windowMs: 60 * 60 * 1000 };

/** The file's own name without any folder part, for display only. */
function displayName(name: string): string {
  return (path.basename(name.replace(/\\/g, '/')) || 'image').slice(0, 200);
}

/** A multipart body, with the Content-Length it announced (if any) to refuse early. */
export type UploadRequest = MultipartBody & { declaredBytes: number | undefined };

/**
 * The steps every upload takes before its file is looked at: the account's hourly allowance, room
 * in its quota and on the disk, then the body streamed to a temporary file under the kind's cap.
 * `use` checks and keeps the file; the room is held until it is done.
 */
async function receiveUpload<T>(
  deps: Deps,
  session: Session,
  request: UploadRequest,
  kind: { attempts: ThrottleRule; field: string; maxMb: number },
  use: (file: ReceivedFile) => Promise<T>,
): Promise<T> {
  if (takeAttempt(deps.db, kind.attempts, String(session.user.id)) === null) {
    throw rateLimited(serverMessages.rateLimited);
  }
  return withRoomForUpload(
    deps,
    session,
    kind.maxMb * MB,
    uploadMessages.tooLarge(kind.maxMb),
    request.declaredBytes,
    async (limit) =>
      use(await receiveSingleFile(request, { field: kind.field, tempFile: deps.media.tempFile(), ...limit })),
  );
}

/** POST /api/uploads/image: stream, check the type by content, re-encode, record. */
export async function uploadImage(deps: Deps, session: Session, request: UploadRequest) {
  const kind = { attempts: imageUploadsByUser, field: 'imageFile', maxMb: UPLOAD_LIMITS_MB.image };
  return receiveUpload(deps, session, request, kind, (file) => keepImage(deps, session, file));
}

/** Checks the received image by content, renders it and records the upload. */
async function keepImage(deps: Deps, session: Session, file: ReceivedFile) {
  const { media } = deps;
  const id = newUploadId();
  try {
    if (!isJpegOrPng(file.head)) throw invalid(uploadMessages.wrongType.image);
    try {
      await renderImage(file.tempFile, id, media);
    } catch (error) {
      await removeImageFiles(media, id);
      // The image was read; the bucket did not take its renditions: not the uploader's fault.
      if (error instanceof MediaStoreError) throw error;
      throw invalid('The image could not be read. Please choose another file.');
    }
    try {
      queries.insertUpload(deps.db, {
        id,
        userId: session.user.id,
        kind: 'image',
        format: file.head[0] === 0xff ? 'jpeg' : 'png',
        originalName: displayName(file.originalName),
        bytes: file.bytes,
      });
    } catch (error) {
      await removeImageFiles(media, id);
      throw error;
    }
    return { id };
  } finally {
    // The original may carry EXIF and GPS data: only the re-encoded renditions are kept.
    await fs.rm(file.tempFile, { force: true });
  }
}

async function removeImageFiles(media: MediaStore, id: string) {
  await media.discard(...media.imageFiles(id));
}

/**
 * POST /api/uploads/track: stream to disk, check by content that it is WAV or MP3, keep the
 * original under a generated name. Processing it is the audio pipeline's job (issue 5).
 */
export async function uploadTrack(deps: Deps, session: Session, request: UploadRequest) {
  const kind = { attempts: trackUploadsByUser, field: 'trackFile', maxMb: UPLOAD_LIMITS_MB.track };
  return receiveUpload(deps, session, request, kind, (file) => keepTrack(deps, session, file));
}

/** Checks the received track by content and keeps the original under a generated name. */
async function keepTrack(deps: Deps, session: Session, file: ReceivedFile) {
  const { media } = deps;
  try {
    const format = audioFormat(file.head);
    if (!format) throw invalid(uploadMessages.wrongType.track);
    const id = newUploadId();
    const stored = media.trackFile(id, format);
    await fs.rename(file.tempFile, stored);
    await media.store(stored).catch(async (error: unknown) => {
      await media.discard(stored);
      throw error;
    });
    try {
      queries.insertUpload(deps.db, {
        id,
        userId: session.user.id,
        kind: 'track',
        format,
        originalName: displayName(file.originalName),
        bytes: file.bytes,
        crc32: file.crc32,
      });
    } catch (error) {
      await media.remove(stored);
      throw error;
    }
    return { id };
  } finally {
    await fs.rm(file.tempFile, { force: true });
  }
}

/** Removes uploads nothing refers to once they are an hour old, and stray partial files. */
export async function cleanupUnusedUploads(deps: Pick<Deps, 'db' | 'logger' | 'media'>, now = Date.now()) {
  const { media } = deps;
  const unused = queries.findUnusedUploads(deps.db, new Date(now - UNUSED_UPLOAD_TTL_MS));
  let removed = 0;
  for (const upload of unused) {
    // The row goes first, and only if still unused: an artist may have taken it up meanwhile.
    if (!queries.deleteUploadIfUnused(deps.db, upload.id)) continue;
    removed++;
    if (upload.kind === 'image') await removeImageFiles(media, upload.id);
    const original = media.storedOriginal(upload);
    if (original) await media.remove(original);
  }
  // While the server runs, a file without its row may be a write in progress (an upload
  // streaming, a render): only those untouched for an hour go.
  await removeStrayFiles(deps, (file) => now - file.modified.getTime() > UNUSED_UPLOAD_TTL_MS);
  if (removed > 0) deps.logger.info({ count: removed }, 'removed unused uploads');
  return removed;
}

/**
 * At start-up, before the server listens and before a job runs, nothing is writing media: every
 * partial upload, file without its upload row and rendition no track refers to is what a crash
 * (kill -9, power loss) cut short, and goes now rather than an hour later (issue 14). Answers
 * how many files went.
 */
export async function removeCrashLeftovers(deps: Pick<Deps, 'db' | 'logger' | 'media' | 'uploadsInFlight'>) {
  deps.uploadsInFlight.releaseAbandoned();
  const count = await removeStrayFiles(deps, () => true);
  if (count > 0) deps.logger.warn({ count }, 'removed files an earlier run left half-made');
  return count;
}

/**
 * A server process has died while others run on (WEB_CONCURRENCY): its uploads' reservations and
 * partial files go now, the others' stay, whatever their age. What else it may have left (a
 * rendition it made but had not recorded) goes with the hourly sweep or at the next start.
 * Answers how many files went.
 */
export async function clearUploadsOfEndedServers(deps: Pick<Deps, 'logger' | 'media' | 'uploadsInFlight'>) {
  deps.uploadsInFlight.releaseAbandoned();
  let removed = 0;
  for (const name of await fs.readdir(deps.media.dirs.tmp)) {
    if (!writerHasEnded(name)) continue;
    await fs.rm(path.join(deps.media.dirs.tmp, name), { force: true });
    removed++;
  }
  if (removed > 0) deps.logger.warn({ count: removed }, 'removed the partial uploads of a server process that ended');
  return removed;
}

/**
 * Files whose upload was never recorded (a crash mid-render or between storing and recording),
 * partial uploads, and renditions nothing refers to (a crash between rendering and recording, or
 * before a replaced rendition was removed), when `mayGo` agrees. Answers how many went.
 */
async function removeStrayFiles(
  deps: Pick<Deps, 'db' | 'media'>,
  mayGo: (file: { modified: Date }) => boolean,
): Promise<number> {
  const { media, db } = deps;
  const uploadOf = (idOf: (name: string) => string) => (name: string) => queries.uploadExists(db, idOf(name));
  const folders: [Parameters<MediaStore['files']>[0], (name: string) => boolean][] = [
    ['images', uploadOf((name) => name.split('-').slice(0, -1).join('-'))],
    ['tracks', uploadOf((name) => name.replace(/\.[a-z0-9]+$/, ''))],
    ['zips', uploadOf((name) => name.replace(/\.zip$/, ''))],
    ['tmp', () => false],
    ['streams', (name) => queries.renditionInUse(db, 'stream', name)],
    ['previews', (name) => queries.renditionInUse(db, 'preview', name)],
    ['transcodes', (name) => transcodeFileInUse(db, name)],
  ];
  let removed = 0;
  for (const [folder, isKept] of folders) {
    for await (const found of media.files(folder)) {
      // A file still being written (a long upload, a render) is touched as it grows.
      if (!mayGo(found) || isKept(found.name)) continue;
      await media.remove(found.file);
      removed++;
    }
  }
  return removed;
}
