import fs from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS, UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { serverMessages } from '../../../shared/api';
import { invalid, rateLimited } from '../../errors';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import type { Deps, Session } from '../../http/context';
import { type MediaStore, newUploadId } from '../../infra/storage/media';
import { audioFormat } from '../../infra/storage/file-types';
import { isJpegOrPng, renderImage } from './images';
import { type MultipartBody, receiveSingleFile } from '../../infra/storage/multipart';
import * as queries from '../../infra/storage/upload-records';

const MB = 1024 * 1024;

/** Each upload costs disk and a render: plenty for building a profile, not for filling a disk. */
const imageUploadsByUser: ThrottleRule = { bucket: 'image-upload-user', limit: 60, windowMs: 60 * 60 * 1000 };

/** An album is at most 40 tracks and a preview; retries and a second album still fit. */
const trackUploadsByUser: ThrottleRule = { bucket: 'track-upload-user', limit: 200, windowMs: 60 * 60 * 1000 };

/** The file's own name without any folder part, for display only. */
function displayName(name: string): string {
  return (path.basename(name.replace(/\\/g, '/')) || 'image').slice(0, 200);
}

/** POST /api/uploads/image: stream, check the type by content, re-encode, record. */
export async function uploadImage(deps: Deps, session: Session, request: MultipartBody) {
  const { media } = deps;
  if (takeAttempt(deps.db, imageUploadsByUser, String(session.user.id)) === null) {
    throw rateLimited(serverMessages.rateLimited);
  }
  const file = await receiveSingleFile(request, {
    field: 'imageFile',
    maxBytes: UPLOAD_LIMITS_MB.image * MB,
    tempFile: media.tempFile(),
    tooLargeMessage: `File must be less than ${UPLOAD_LIMITS_MB.image} MB`,
  });
  const id = newUploadId();
  try {
    if (!isJpegOrPng(file.head)) throw invalid('File type must be one of the following: jpeg, jpg, png');
    try {
      await renderImage(file.tempFile, id, media);
    } catch {
      await removeImageFiles(media, id);
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
  await Promise.all(
    IMAGE_WIDTHS.flatMap((width) =>
      (['webp', 'jpg'] as const).map((format) => fs.rm(media.imageFile(id, width, format), { force: true })),
    ),
  );
}

/**
 * POST /api/uploads/track: stream to disk, check by content that it is WAV or MP3, keep the
 * original under a generated name. Processing it is the audio pipeline's job (issue 5).
 */
export async function uploadTrack(deps: Deps, session: Session, request: MultipartBody) {
  const { media } = deps;
  if (takeAttempt(deps.db, trackUploadsByUser, String(session.user.id)) === null) {
    throw rateLimited(serverMessages.rateLimited);
  }
  const file = await receiveSingleFile(request, {
    field: 'trackFile',
    maxBytes: UPLOAD_LIMITS_MB.track * MB,
    tempFile: media.tempFile(),
    tooLargeMessage: `File must be less than ${UPLOAD_LIMITS_MB.track} MB`,
  });
  try {
    const format = audioFormat(file.head);
    if (!format) throw invalid('File type must be one of the following: wav, mp3, mpeg');
    const id = newUploadId();
    const stored = media.trackFile(id, format);
    await fs.rename(file.tempFile, stored);
    try {
      queries.insertUpload(deps.db, {
        id,
        userId: session.user.id,
        kind: 'track',
        format,
        originalName: displayName(file.originalName),
        bytes: file.bytes,
      });
    } catch (error) {
      await fs.rm(stored, { force: true });
      throw error;
    }
    return { id };
  } finally {
    await fs.rm(file.tempFile, { force: true });
  }
}

/** Where an upload's stored original lives (images keep only their renditions). */
export function storedOriginal(media: MediaStore, upload: { id: string; kind: string; format: string | null }) {
  if (upload.kind === 'zip') return media.zipFile(upload.id);
  if (upload.kind === 'track' && (upload.format === 'wav' || upload.format === 'mp3')) {
    return media.trackFile(upload.id, upload.format);
  }
  return null;
}

const DAY = 24 * 60 * 60 * 1000;

/** Removes uploads nothing refers to once they are a day old, and stray partial files. */
export async function cleanupUnusedUploads(deps: Pick<Deps, 'db' | 'logger' | 'media'>, now = Date.now()) {
  const { media } = deps;
  const unused = queries.findUnusedUploads(deps.db, new Date(now - DAY));
  let removed = 0;
  for (const upload of unused) {
    // The row goes first, and only if still unused: an artist may have taken it up meanwhile.
    if (!queries.deleteUploadIfUnused(deps.db, upload.id)) continue;
    removed++;
    if (upload.kind === 'image') await removeImageFiles(media, upload.id);
    const original = storedOriginal(media, upload);
    if (original) await fs.rm(original, { force: true });
  }
  // Files whose upload was never recorded (a crash mid-render or between storing and recording),
  // and partial uploads.
  const uploadOf = (idOf: (name: string) => string) => (name: string) => queries.uploadExists(deps.db, idOf(name));
  await removeStrayFiles(
    media.dirs.images,
    uploadOf((name) => name.split('-').slice(0, -1).join('-')),
    now,
  );
  await removeStrayFiles(
    media.dirs.tracks,
    uploadOf((name) => name.replace(/\.[a-z0-9]+$/, '')),
    now,
  );
  await removeStrayFiles(
    media.dirs.zips,
    uploadOf((name) => name.replace(/\.zip$/, '')),
    now,
  );
  await removeStrayFiles(media.dirs.tmp, () => false, now);
  // Renditions are removed by a job when their track goes; these catch a crash mid-render.
  await removeStrayFiles(media.dirs.streams, (name) => queries.renditionInUse(deps.db, 'stream', name), now);
  await removeStrayFiles(media.dirs.previews, (name) => queries.renditionInUse(deps.db, 'preview', name), now);
  if (removed > 0) deps.logger.info({ count: removed }, 'removed unused uploads');
  return removed;
}

/** Removes files over a day old in `dir` that nothing keeps (`isKept` answers by file name). */
async function removeStrayFiles(dir: string, isKept: (name: string) => boolean, now: number) {
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat || now - stat.mtimeMs <= DAY) continue;
    if (!isKept(name)) await fs.rm(file, { force: true });
  }
}
