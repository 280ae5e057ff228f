import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/client';
import { mediaStore } from './media';
import type { S3Objects } from './s3-objects';
import { mediaFilesInUse } from './upload-records';

// `npm run cli -- media-migrate --to s3` (issue 25): copies a site's media from the data folder to
// its bucket under the same keys, so switching MEDIA_STORE to s3 finds every file. Each object is
// checked after it is written by reading it back and comparing its SHA-256 with the local file's;
// the hash goes with the object (x-amz-meta-sha256), so a second run, or one after an interruption,
// skips what is already there and whole, and copies only the rest. Local files are left in place:
// the operator removes them once the site runs from the bucket.

export const SHA256_METADATA = 'sha256';

export type MigrationProgress = {
  copied(key: string, bytes: number): void;
  missing(key: string): void;
};

export type MigrationSummary = {
  copied: number;
  copiedBytes: number;
  alreadyThere: number;
  /** Files the database names that are not in the data folder (nothing to copy). */
  missing: string[];
};

export class MigrationError extends Error {}

async function sha256Of(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Copies every media file the database refers to from `dataDir` into `bucket`, checked. */
export async function migrateMediaToBucket(
  db: Db,
  dataDir: string,
  bucket: S3Objects,
  progress: MigrationProgress,
): Promise<MigrationSummary> {
  const local = mediaStore(dataDir);
  const summary: MigrationSummary = { copied: 0, copiedBytes: 0, alreadyThere: 0, missing: [] };
  for (const file of mediaFilesInUse(db, local)) {
    const key = local.keyOf(file);
    let source: { sha256: string; bytes: number };
    try {
      source = await sha256Of(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }));
    } catch (error) {
      if (!isMissing(error)) throw error;
      summary.missing.push(key);
      progress.missing(key);
      continue;
    }
    const present = await bucket.head(key);
    if (present?.size === source.bytes && present.metadata[SHA256_METADATA] === source.sha256) {
      summary.alreadyThere++;
      continue;
    }
    await bucket.upload(key, file, { [SHA256_METADATA]: source.sha256 });
    const stored = await bucket.read(key);
    const copy = stored ? await sha256Of(stored) : undefined;
    if (copy?.sha256 !== source.sha256 || copy.bytes !== source.bytes) {
      // Not left looking whole: the next run copies it again.
      await bucket.remove(key);
      throw new MigrationError(
        `${key} did not arrive in the bucket as it is on disk; nothing else was changed. Run again.`,
      );
    }
    summary.copied++;
    summary.copiedBytes += source.bytes;
    progress.copied(key, source.bytes);
  }
  return summary;
}
