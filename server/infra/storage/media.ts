import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { IMAGE_WIDTHS } from '../../../shared/constants';
import { currentBootId, isRunning, thisProcess } from '../processes/identity';
import type { Config } from '../../config';
import { keyUnder, localObjects, type MediaObjects, MediaStoreError, type ObjectInfo } from './objects';
import { s3Client, s3Objects } from './s3-objects';

// Media files: made on local disk under DATA_DIR/media, kept there or in a bucket (objects.ts).
// Every name is generated here; nothing a client sends ever becomes part of a path. A file's path
// here is where it is made and, with local storage, where it stays; its key (the path under the
// media directory) is what names it in the store either way.

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

/** The media folders, each a key prefix in the store too. */
export const MEDIA_FOLDERS = ['images', 'tracks', 'zips', 'streams', 'previews'] as const;

export function mediaStore(dataDir: string, storeIn?: (root: string) => MediaObjects) {
  const writer = thisProcess();
  const root = path.join(dataDir, 'media');
  const objects = storeIn ? storeIn(root) : localObjects(root);
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
    /**
     * Tracks made in other formats (issue 27): a cache, made again when missing, so not in
     * MEDIA_FOLDERS (backups and media-migrate leave it out).
     */
    transcodes: path.join(root, 'transcodes'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const imageFile = (id: string, width: number, format: 'webp' | 'jpg') =>
    path.join(dirs.images, `${id}-${width}.${format}`);
  const trackFile = (id: string, format: AudioFormat) => path.join(dirs.tracks, `${id}.${format}`);
  const zipFile = (id: string) => path.join(dirs.zips, `${id}.zip`);
  const tempFile = () =>
    path.join(dirs.tmp, `${randomBytes(16).toString('hex')}.${writer.pid}-${writer.startTicks}.part`);
  const keyOf = (file: string) => keyUnder(root, file);
  return {
    root,
    dirs,
    objects,
    keyOf,
    /** A fresh path for an upload in progress. */
    tempFile,
    /** Keeps the finished file at `file` (one of the paths below) in the store. */
    store: (file: string) =>
      objects.putFile(keyOf(file), file).catch((error: unknown) => {
        throw new MediaStoreError(`the media store did not take ${keyOf(file)}`, { cause: error });
      }),
    /** Removes the file from the store (and any copy still on local disk); nothing happens when it is gone. */
    async remove(file: string) {
      await fsp.rm(file, { force: true });
      if (objects.kind !== 'local') await objects.remove(keyOf(file));
    },
    /**
     * Removes what a failed save left (`remove` for each), as far as it can: the save's own failure
     * is what its caller reports, and what could not go now goes with the hourly sweep.
     */
    async discard(...files: string[]) {
      await Promise.all(files.map((file) => this.remove(file).catch(() => undefined)));
    },
    /** The stored file's length and time, or null when it is not there. */
    stat: (file: string): Promise<ObjectInfo | null> => objects.stat(keyOf(file)),
    /** The stored file's bytes (start..end inclusive), or null when it is not there. */
    read: (file: string, range?: { start: number; end: number }) => objects.read(keyOf(file), range),
    /**
     * Runs `use` with the stored file on local disk (ffmpeg reads files): the file itself when the
     * store is local, else a copy fetched for the time `use` takes. Null when it is not stored.
     */
    async withLocalCopy<T>(file: string, use: (local: string) => Promise<T>): Promise<T | null> {
      if (objects.kind === 'local') return (await objects.stat(keyOf(file))) ? use(file) : null;
      const body = await objects.read(keyOf(file));
      if (!body) return null;
      const copy = tempFile();
      try {
        await pipeline(body, fs.createWriteStream(copy, { flags: 'wx' }));
        return await use(copy);
      } finally {
        await fsp.rm(copy, { force: true });
      }
    },
    /**
     * Every file of one media folder there is: stored ones and, with a bucket, those being made on
     * local disk. `file` is its path here (what remove takes).
     */
    async *files(
      folder: (typeof MEDIA_FOLDERS)[number] | 'tmp' | 'transcodes',
    ): AsyncIterable<{ file: string; name: string; modified: Date }> {
      const listings: AsyncIterable<{ key: string; modified: Date }>[] = [localObjects(root).list(`${folder}/`)];
      if (objects.kind !== 'local' && folder !== 'tmp') listings.push(objects.list(`${folder}/`));
      for (const listing of listings) {
        for await (const { key, modified } of listing) {
          const name = key.slice(folder.length + 1);
          // A "folder" marker some tools make (`streams/`), or deeper keys: never a file of ours.
          if (!name || name.includes('/')) continue;
          yield { file: path.join(dirs[folder], name), name, modified };
        }
      }
    },
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
    /** `name` is one that newTranscodeName made (stored in the database). */
    transcodeFile: (name: string) => path.join(dirs.transcodes, name),
  };
}

/** The media store the configuration names: the data folder, or the bucket of MEDIA_STORE=s3. */
export function configuredMediaStore(config: Pick<Config, 'dataDir' | 's3' | 'media'>) {
  const { bucket } = config.media;
  return mediaStore(config.dataDir, bucket ? () => s3Objects(s3Client(config.s3), bucket) : undefined);
}

/** 16 random bytes, base64url: 22 characters, well under the spec's 200 for upload ids. */
export function newUploadId(): string {
  return randomBytes(16).toString('base64url');
}

/** A fresh file name for a rendition: renditions are immutable, a new render gets a new name. */
export function newRenditionName(): string {
  return `${randomBytes(16).toString('base64url')}.mp3`;
}

/** A fresh file name for a transcode, with the extension its players expect. */
export function newTranscodeName(extension: string): string {
  return `${randomBytes(16).toString('base64url')}.${extension}`;
}

/** A rendition's version in its URLs (`?v=`): the name without ".mp3" (shared/schemas/library.ts trackUrls). */
export function renditionVersion(name: string): string {
  return name.replace(/\.mp3$/, '');
}
