import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

// Where media files live once made (DESIGN.md, contract details for wave 3, object storage): the
// data folder's media directory on the small VM, or an S3-compatible bucket (s3-objects.ts). Each
// file has a key, its path under the media directory with '/' between parts ("streams/<name>.mp3");
// the same key names it in the bucket, so a site moves across by copying (media-migrate).
//
// Files are always made on local disk first: uploads stream to a partial file that is checked by
// content, renditions come out of ffmpeg and libvips, which write files. `putFile` then moves the
// finished file to its key; locally the file is made at its key's path already, and nothing moves.

/** What the store says of an object: its length and when it was written. */
export type ObjectInfo = { size: number; modified: Date };

/** An object in a listing, by its key. */
export type ListedObject = ObjectInfo & { key: string };

/** A link to an object, for the browser to fetch from the store itself. */
export type ObjectLinkOptions = {
  /** A presigned URL is signed for one method: a HEAD (the offline save learns sizes so) needs its own. */
  method: 'GET' | 'HEAD';
  contentType: string;
  /** The download's file name (Content-Disposition: attachment); none plays inline. */
  downloadName?: string;
};

export interface MediaObjects {
  readonly kind: 'local' | 's3';
  /** Moves the finished local file `file` to `key`: after this the local file is gone (or is the object). */
  putFile(key: string, file: string): Promise<void>;
  /** The object's length and time, or null when there is none. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The object's bytes start..end (inclusive; all without a range); null when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Removes the object; nothing happens when there is none. */
  remove(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` ("streams/"). */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** A short-lived URL the browser may fetch the object from itself; a local store has none. */
  link?(key: string, options: ObjectLinkOptions): Promise<string>;
}

/** The store did not take a file (a bucket unreachable, refusing): the request changed nothing, and may be tried again. */
export class MediaStoreError extends Error {}

/** The key of a file under `root` (a path the media store made). */
export function keyUnder(root: string, file: string): string {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`${file} is not under ${root}`);
  return relative.split(path.sep).join('/');
}

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

/** Objects as files under `root`, the data folder's media directory: the two-command default. */
export function localObjects(root: string): MediaObjects {
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  return {
    kind: 'local',
    async putFile(key, file) {
      const target = fileOf(key);
      if (path.resolve(file) !== target) await fsp.rename(file, target);
    },
    async stat(key) {
      const stats = await fsp.stat(fileOf(key)).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      return stats?.isFile() ? { size: stats.size, modified: stats.mtime } : null;
    },
    async read(key, range) {
      const file = fileOf(key);
      const handle = await fsp.open(file, 'r').catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      if (!handle) return null;
      return handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: 1 << 20 });
    },
    async remove(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
    async *list(prefix) {
      const dir = prefix.replace(/\/$/, '');
      const names = await fsp.readdir(fileOf(dir)).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const name of names) {
        const key = `${dir}/${name}`;
        const info = await this.stat(key);
        if (info) yield { key, ...info };
      }
    },
  };
}
