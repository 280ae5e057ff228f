import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError, type BackupTarget, createBackup, hashingTap, isMissing, MANIFEST, restoreBackup } from './backup';
import type { S3Location as BackupLocation, S3Objects } from './storage/s3-objects';

// Off-site backups (issue 25; DESIGN.md, contract details for wave 3): `backup s3://BUCKET/PREFIX`
// writes the same backup as a folder's (the database snapshot, the media files it refers to, the
// manifest with their hashes) under PREFIX/<time>/ in a bucket, the manifest last, so a backup
// without one is incomplete and never restored; `restore s3://BUCKET/PREFIX/NAME` fetches one back
// and restores it with the same checks as a folder. BACKUP_KEEP keeps the newest N.

const under = (prefix: string, name: string) => (prefix ? `${prefix}/${name}` : name);

/** A backup's name: when it was taken, in UTC to the second, so names sort as times do. */
export function backupName(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;

/**
 * The folder in DATA_DIR where a backup's snapshot and a restore's download are made. A run that
 * was killed (the timer's time limit, a reboot) leaves its files there; the next run removes
 * those older than a day, which no run takes.
 */
async function scratchFolder(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, 'backup-scratch');
  await fs.mkdir(folder, { recursive: true });
  for (const entry of await fs.readdir(folder)) {
    const stats = await fs.stat(path.join(folder, entry)).catch(() => undefined);
    if (stats && Date.now() - stats.mtimeMs > DAY_MS)
      await fs.rm(path.join(folder, entry), { recursive: true, force: true });
  }
  return folder;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How old a backup without its manifest must be to count as cut off rather than being written. */
const CUT_OFF_AFTER_MS = 6 * 60 * 60 * 1000;

/** A backup written under `folder` (a key prefix) of the bucket; the snapshot is made in `scratchDir` first. */
function bucketTarget(objects: S3Objects, folder: string, scratchDir: string): BackupTarget {
  const snapshotFile = path.join(scratchDir, `backup-${randomBytes(8).toString('hex')}.db`);
  return {
    async checkEmpty() {
      for await (const _object of objects.list(`${folder}/`)) {
        throw new BackupError(
          `s3://${objects.bucket}/${folder}/ already holds a backup (another was started the same second): run it again.`,
        );
      }
    },
    async copyIn(name, from) {
      const file = fsSync.createReadStream(from, { highWaterMark: 1024 * 1024 });
      try {
        await new Promise<void>((resolve, reject) => file.once('open', () => resolve()).once('error', reject));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const { tap, result } = hashingTap();
      await Promise.all([objects.upload(`${folder}/${name}`, tap), pipeline(file, tap)]);
      return result();
    },
    drop: (name) => objects.remove(`${folder}/${name}`),
    snapshotFile,
    async keepSnapshot() {
      try {
        await objects.upload(`${folder}/soundcause.db`, snapshotFile);
      } finally {
        await fs.rm(snapshotFile, { force: true });
      }
    },
    async writeManifest(text) {
      const file = `${snapshotFile}.${MANIFEST}`;
      await fs.writeFile(file, text);
      try {
        await objects.upload(`${folder}/${MANIFEST}`, file);
      } finally {
        await fs.rm(file, { force: true });
      }
    },
  };
}

/**
 * Backs the site in `dataDir` up to a new backup under `location` (PREFIX/<time>/), then removes
 * all but the newest `keep` complete backups there (and what interrupted runs left before them).
 */
export async function backupToBucket(
  dataDir: string,
  objects: S3Objects,
  location: BackupLocation,
  options: { mediaBucket?: string; keep?: number; now?: Date },
) {
  const now = options.now ?? new Date();
  const name = backupName(now);
  const folder = under(location.prefix, name);
  const target = bucketTarget(objects, folder, await scratchFolder(dataDir));
  // Another run's backup under the same name is never touched: refused before anything is written.
  await target.checkEmpty();
  let done: Awaited<ReturnType<typeof createBackup>>;
  try {
    done = await createBackup(dataDir, { ...target, checkEmpty: async () => undefined }, options);
  } catch (error) {
    // A backup that failed leaves no half of itself behind (it would have no manifest anyway).
    await removeFolder(objects, folder).catch(() => undefined);
    await fs.rm(target.snapshotFile, { force: true });
    throw error;
  }
  // The new backup is whole: a failure to remove older ones is reported, the backup kept.
  let removed: string[] = [];
  let pruneFailure: string | undefined;
  if (options.keep) {
    try {
      removed = await keepNewest(objects, location, options.keep, now);
    } catch (error) {
      pruneFailure = error instanceof Error ? error.message : String(error);
    }
  }
  await fs.rmdir(path.dirname(target.snapshotFile)).catch(() => undefined);
  return { ...done, name, url: `s3://${objects.bucket}/${folder}`, removed, pruneFailure };
}

async function removeFolder(objects: S3Objects, folder: string) {
  const keys: string[] = [];
  for await (const object of objects.list(`${folder}/`)) keys.push(object.key);
  // The manifest first: a backup half removed is an incomplete one, never restored.
  keys.sort((a, b) => Number(b.endsWith(`/${MANIFEST}`)) - Number(a.endsWith(`/${MANIFEST}`)));
  for (const key of keys) await objects.remove(key);
}

/** The backups under `location`, oldest first, and whether each is complete (has its manifest). */
export async function listBackups(objects: S3Objects, location: BackupLocation) {
  const folders = await objects.listFolders(location.prefix ? `${location.prefix}/` : '');
  const backups: { name: string; complete: boolean }[] = [];
  for (const folder of folders) {
    const name = folder.slice(location.prefix ? location.prefix.length + 1 : 0).replace(/\/$/, '');
    if (!BACKUP_NAME.test(name)) continue; // not one of ours
    backups.push({ name, complete: (await objects.stat(`${folder}${MANIFEST}`)) !== null });
  }
  return backups.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** When the backup named `name` was started. */
const startOf = (name: string) =>
  Date.parse(name.replace(/^(\d{4}-\d{2}-\d{2}T)(\d{2})-(\d{2})-(\d{2})Z$/, '$1$2:$3:$4Z'));

/**
 * Removes every complete backup but the newest `keep`, and the incomplete ones started more than
 * six hours before `now` (runs that were cut off: a run is stopped after 50 minutes; a younger
 * one may be a backup being written now).
 */
async function keepNewest(objects: S3Objects, location: BackupLocation, keep: number, now: Date): Promise<string[]> {
  const backups = await listBackups(objects, location);
  const complete = backups.filter((backup) => backup.complete);
  const kept = new Set(complete.slice(-keep).map((backup) => backup.name));
  const cutOff = (name: string) => now.getTime() - startOf(name) > CUT_OFF_AFTER_MS;
  const removed = backups
    .filter((backup) => !kept.has(backup.name) && (backup.complete || cutOff(backup.name)))
    .map((backup) => backup.name);
  for (const name of removed) await removeFolder(objects, under(location.prefix, name));
  return removed;
}

/**
 * Restores the backup at `location` (PREFIX/NAME): fetched into a scratch folder beside the site's
 * data, then restored from there with every check of a folder's restore (restoreBackup).
 */
export async function restoreFromBucket(
  objects: S3Objects,
  location: BackupLocation,
  dataDir: string,
  options: { force?: boolean },
) {
  const folder = location.prefix;
  if (!folder || (await objects.stat(`${folder}/${MANIFEST}`)) === null) {
    throw new BackupError(
      `s3://${objects.bucket}/${folder} holds no complete backup (no ${MANIFEST}). The complete ones under that prefix are listed by: npm run cli -- backups s3://${objects.bucket}/${folder.split('/').slice(0, -1).join('/')}`,
    );
  }
  await fs.mkdir(dataDir, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(await scratchFolder(dataDir), 'restore-'));
  try {
    for await (const object of objects.list(`${folder}/`)) {
      const name = object.key.slice(folder.length + 1);
      if (!name || name.endsWith('/')) continue; // a "folder" marker some tools make
      const to = path.join(scratch, ...name.split('/'));
      if (!to.startsWith(scratch + path.sep))
        throw new BackupError(`The backup holds an unexpected key: ${object.key}`);
      const body = await objects.read(object.key);
      if (!body) throw new BackupError(`${object.key} went while it was being fetched.`);
      await fs.mkdir(path.dirname(to), { recursive: true });
      await pipeline(body, fsSync.createWriteStream(to, { flags: 'wx' }));
    }
    return await restoreBackup(scratch, dataDir, options);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
    await fs.rmdir(path.dirname(scratch)).catch(() => undefined);
  }
}
