import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { IMAGE_WIDTHS } from '../../../shared/constants';
import { currentBootId, isRunning, thisProcess } from '../processes/identity';

// Files on local disk under DATA_DIR/media. Every name is generated here; nothing a client sends
// ever becomes part of a path.

export type AudioFormat = 'wav' | 'mp3';

/** What the media store needs to know of an upload row to find its files. */
export type StoredUpload = { id: string; kind: string; format: string | null };

export type MediaStore = ReturnType<typeof mediaStore>;

/**
 * A partial file's name says which process writes it (`<random>.<pid>-<start ticks>.part`): with
 * several server processes, what one that died left half-written goes at once, while the others'
 * uploads stream on beside it (writerHasEnded).
 */
const PARTIAL_NAME = /^[0-9a-f]{32}\.(\d+)-(\d+)\.part$/;

/** Whether the process that wrote the partial file `name` has ended; false when the name does not say. */
export function writerHasEnded(name: string): boolean {
  const match = PARTIAL_NAME.exec(name);
  if (!match) return false;
  return !isRunning({ bootId: currentBootId(), pid: Number(match[1]), startTicks: Number(match[2]) });
}

export function mediaStore(dataDir: string) {
  const writer = thisProcess();
  const root = path.join(dataDir, 'media');
  const dirs = {
    tmp: path.join(root, 'tmp'),
    images: path.join(root, 'images'),
    /** Uploaded audio originals, kept as sent (the best quality there is). */
    tracks: path.join(root, 'tracks'),
    /** Legacy v1 album zips. */
    zips: path.join(root, 'zips'),
    /** Streaming renditions of tracks (MP3 192 kbps CBR), made by the track pipeline. */
    streams: path.join(root, 'streams'),
    /** Public 30-second previews of tracks. */
    previews: path.join(root, 'previews'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const imageFile = (id: string, width: number, format: 'webp' | 'jpg') =>
    path.join(dirs.images, `${id}-${width}.${format}`);
  const trackFile = (id: string, format: AudioFormat) => path.join(dirs.tracks, `${id}.${format}`);
  const zipFile = (id: string) => path.join(dirs.zips, `${id}.zip`);
  return {
    root,
    dirs,
    /** A fresh path for an upload in progress. */
    tempFile: () => path.join(dirs.tmp, `${randomBytes(16).toString('hex')}.${writer.pid}-${writer.startTicks}.part`),
    imageFile,
    trackFile,
    zipFile,
    /** An image upload's renditions: each width of IMAGE_WIDTHS in WebP and JPEG (the original is not kept). */
    imageFiles: (id: string) =>
      IMAGE_WIDTHS.flatMap((width) => (['webp', 'jpg'] as const).map((format) => imageFile(id, width, format))),
    /** Where an upload's stored original lives (images keep only their renditions). */
    storedOriginal(upload: StoredUpload): string | null {
      if (upload.kind === 'zip') return zipFile(upload.id);
      if (upload.kind === 'track' && (upload.format === 'wav' || upload.format === 'mp3')) {
        return trackFile(upload.id, upload.format);
      }
      return null;
    },
    /** `name` is one that newRenditionName made (stored in the database), never a client's. */
    streamFile: (name: string) => path.join(dirs.streams, name),
    previewFile: (name: string) => path.join(dirs.previews, name),
  };
}

/** 16 random bytes, base64url: 22 characters, well under the spec's 200 for upload ids. */
export function newUploadId(): string {
  return randomBytes(16).toString('base64url');
}

/** A fresh file name for a rendition: renditions are immutable, a new render gets a new name. */
export function newRenditionName(): string {
  return `${randomBytes(16).toString('base64url')}.mp3`;
}

/** A rendition's version in its URLs (`?v=`): the name without ".mp3" (shared/schemas/library.ts trackUrls). */
export function renditionVersion(name: string): string {
  return name.replace(/\.mp3$/, '');
}
