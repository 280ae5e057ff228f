import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { knownMigrationCount } from '../db/client';
import * as schema from '../db/schema';
import { MEDIA_FOLDERS, mediaStore } from './storage/media';
import { mediaFilesInUse } from './storage/upload-records';

// Backups of a running site (issue 14): the SQLite file through SQLite's online backup API, and
// the media files its rows refer to, with a manifest of their hashes; and their restore.
//
// Which first, the database or the media? Media files never change once written (every name is
// new), a row refers to a file only after the file is whole, and a file is removed only after no
// row refers to it any more. So:
//   1. every media file there is now is copied first: whatever the database copy will refer to
//      and already existed is in the backup, even if the site removes it a moment later;
//   2. then the database, in one step (a consistent snapshot; the site keeps writing meanwhile);
//   3. then the files the snapshot refers to that were written during step 1 are copied, and the
//      files it does not refer to (removed meanwhile, or half-made) are dropped.
// The database first would miss files removed between the two copies; the media first alone
// would miss files added during the copy. The manifest, written last, marks the backup complete.

export class BackupError extends Error {}

export const MANIFEST = 'manifest.json';
const DATABASE = 'soundcause.db';
/** All the database's pages in one backup step: a snapshot, where steps of 100 pages would start
 * over at each write the site makes meanwhile (and might never end on a busy site). */
const ALL_PAGES = 0x7fffffff;
/** What a manifest may name: a file in one of the media folders, nothing else (restore writes there). */
const MEDIA_PATH = /^(images|tracks|zips|streams|previews)\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export type MediaEntry = { path: string; bytes: number; sha256: string };

export type BackupManifest = {
  format: 1;
  createdAt: string;
  database: { file: string; bytes: number; sha256: string; migrations: number };
  media: MediaEntry[];
  /** The site's media were in this bucket (MEDIA_STORE=s3), not in the backup: the bucket keeps them. */
  mediaBucket?: string;
};

const databaseFile = (dataDir: string) => path.join(dataDir, DATABASE);

async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fsSync.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** A pass-through that hashes what goes through it: `result()` once it has ended. */
export function hashingTap() {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { tap, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/** Copies `from` to `to` (which must not exist), hashing what it copies on the way. */
async function copyWithHash(from: string, to: string): Promise<{ bytes: number; sha256: string }> {
  const { tap, result } = hashingTap();
  await fs.mkdir(path.dirname(to), { recursive: true });
  await pipeline(fsSync.createReadStream(from), tap, fsSync.createWriteStream(to, { flags: 'wx' }));
  return result();
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/**
 * Whether something (the site) has the database open: SQLite refuses an exclusive lock then. The
 * lock dies with the process that held it, so a crashed site does not count as running.
 */
export function siteIsRunning(dataDir: string): boolean {
  const file = databaseFile(dataDir);
  if (!fsSync.existsSync(file)) return false;
  const probe = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    probe.close();
  }
}

/**
 * Where a backup is written: a folder, or a prefix in a bucket (backup-offsite.ts). Files are
 * written under their names in the backup ("soundcause.db", "media/tracks/<id>.wav"); the
 * manifest, written last, marks the backup complete.
 */
export type BackupTarget = {
  /** Refuses a target that already holds something: a backup goes somewhere new. */
  checkEmpty(): Promise<void>;
  /** Copies the file `from` in as `name`, hashing it on the way; null when `from` is gone. */
  copyIn(name: string, from: string): Promise<{ bytes: number; sha256: string } | null>;
  /** Removes `name` again (a file the database copy does not refer to). */
  drop(name: string): Promise<void>;
  /** Where the database snapshot is made on local disk, and what to do with it once checked. */
  snapshotFile: string;
  keepSnapshot(): Promise<void>;
  writeManifest(text: string): Promise<void>;
};

/** A backup folder on this machine (new or empty). */
export function folderTarget(backupDir: string): BackupTarget {
  return {
    async checkEmpty() {
      await fs.mkdir(backupDir, { recursive: true });
      if ((await fs.readdir(backupDir)).length > 0)
        throw new BackupError(`${backupDir} is not empty: back up into a new folder.`);
    },
    async copyIn(name, from) {
      try {
        return await copyWithHash(from, path.join(backupDir, name));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    drop: (name) => fs.rm(path.join(backupDir, name)),
    snapshotFile: path.join(backupDir, DATABASE),
    keepSnapshot: async () => undefined,
    async writeManifest(text) {
      await fs.writeFile(path.join(backupDir, `${MANIFEST}.part`), text);
      await fs.rename(path.join(backupDir, `${MANIFEST}.part`), path.join(backupDir, MANIFEST));
    },
  };
}

/**
 * Backs the site in `dataDir` up into `target` (a folder: folderTarget), while it runs. With its
 * media in a bucket (`mediaBucket`), only the database: objects are never changed or reused under
 * a key, and the bucket's own versioning or replication is what keeps them (the README says how).
 */
export async function createBackup(
  dataDir: string,
  target: BackupTarget,
  { mediaBucket }: { mediaBucket?: string } = {},
) {
  const started = Date.now();
  const source = databaseFile(dataDir);
  if (!fsSync.existsSync(source)) throw new BackupError(`There is no database at ${source}: is DATA_DIR right?`);
  await target.checkEmpty();
  const live = mediaStore(dataDir);
  const copied = new Map<string, { bytes: number; sha256: string }>();
  const copy = async (relative: string) => {
    const hash = await target.copyIn(`media/${relative}`, path.join(live.root, relative));
    if (hash) copied.set(relative, hash);
    return hash !== null;
  };

  // 1. Every media file there is now (see the top of this file for the order).
  if (!mediaBucket) {
    for (const dir of MEDIA_FOLDERS) {
      for (const name of await fs.readdir(path.join(live.root, dir))) await copy(`${dir}/${name}`);
    }
  }

  // 2. The database: one consistent snapshot through the online backup API.
  const snapshot = target.snapshotFile;
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(snapshot, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copyDb = new Database(snapshot);
  let inUse: string[];
  let migrations: number;
  try {
    // One self-contained file that opens anywhere, read-only too (no -wal or -shm beside it).
    copyDb.pragma('journal_mode = DELETE');
    inUse = mediaBucket ? [] : mediaFilesInUse(drizzle(copyDb, { schema }), live).map(live.keyOf);
    migrations = (copyDb.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
  } finally {
    copyDb.close();
  }

  // 3. The files the snapshot refers to that came during step 1; none it does not refer to.
  const wanted = new Set(inUse);
  for (const relative of wanted) {
    if (copied.has(relative)) continue;
    if (!(await copy(relative))) {
      throw new BackupError(
        `${relative} went while it was being backed up (the site changed it just then): back up again.`,
      );
    }
  }
  for (const relative of [...copied.keys()].filter((file) => !wanted.has(file))) {
    await target.drop(`media/${relative}`);
    copied.delete(relative);
  }

  const integrity = integrityOf(snapshot);
  if (integrity !== 'ok') throw new BackupError(`The database copy fails its integrity check: ${integrity}`);
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: { file: DATABASE, ...(await hashFile(snapshot)), migrations },
    media: [...copied].map(([file, hash]) => ({ path: file, ...hash })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    ...(mediaBucket ? { mediaBucket } : {}),
  };
  await target.keepSnapshot();
  await target.writeManifest(JSON.stringify(manifest, null, 2));
  return summary(manifest, started);
}

function summary(manifest: BackupManifest, started: number) {
  return {
    databaseBytes: manifest.database.bytes,
    files: manifest.media.length,
    mediaBytes: manifest.media.reduce((sum, file) => sum + file.bytes, 0),
    ms: Date.now() - started,
  };
}

/** Reads a backup's manifest and checks the backup against it: the database whole, every file as hashed. */
export async function verifyBackup(backupDir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(backupDir, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${backupDir} holds no complete backup (no readable ${MANIFEST}).`);
  }
  if (manifest.format !== 1 || !Array.isArray(manifest.media) || manifest.database?.file !== DATABASE) {
    throw new BackupError(`${backupDir}/${MANIFEST} is not a backup manifest this version reads.`);
  }
  const snapshot = path.join(backupDir, DATABASE);
  const problems: string[] = [];
  const check = async (file: string, expected: { bytes: number; sha256: string }, name: string) => {
    const actual = await hashFile(file).catch(() => undefined);
    if (!actual) problems.push(`${name} is missing`);
    else if (actual.sha256 !== expected.sha256) problems.push(`${name} differs from what was backed up`);
  };
  await check(snapshot, manifest.database, DATABASE);
  if (problems.length === 0) {
    const integrity = integrityOf(snapshot);
    if (integrity !== 'ok') problems.push(`${DATABASE} fails its integrity check: ${integrity}`);
  }
  for (const entry of manifest.media) {
    if (!MEDIA_PATH.test(entry.path))
      problems.push(`the manifest names a file outside the media folders: ${entry.path}`);
    else await check(path.join(backupDir, 'media', entry.path), entry, `media/${entry.path}`);
  }
  if (problems.length)
    throw new BackupError(`The backup in ${backupDir} is damaged:\n  ${problems.slice(0, 20).join('\n  ')}`);
  return manifest;
}

/**
 * Restores the backup in `backupDir` into `dataDir`: checked first, then the media, then the
 * database through SQLite's backup API (a site that has it open sees one whole change, never a
 * half-written file), then checked again where it landed. Refuses a running site unless `force`.
 */
export async function restoreBackup(backupDir: string, dataDir: string, { force = false } = {}) {
  const started = Date.now();
  const manifest = await verifyBackup(backupDir);
  const known = knownMigrationCount();
  if (manifest.database.migrations > known && !force) {
    throw new BackupError(
      `The backup was made by a newer version (${manifest.database.migrations} migrations; this one knows ${known}). Update first, or pass --force.`,
    );
  }
  await fs.mkdir(dataDir, { recursive: true });
  const running = siteIsRunning(dataDir);
  if (running && !force) {
    throw new BackupError(
      `The site is running on ${dataDir} (its database is open). Stop it first (systemctl stop soundcause), or pass --force to restore under it.`,
    );
  }
  // Media first, each file whole before it takes its name: the restored rows find their files.
  const live = mediaStore(dataDir);
  for (const entry of manifest.media) {
    const target = path.join(live.root, entry.path);
    const present = await hashFile(target).catch(() => undefined);
    if (present?.sha256 === entry.sha256) continue;
    const temp = live.tempFile();
    await copyWithHash(path.join(backupDir, 'media', entry.path), temp);
    await fs.rename(temp, target);
  }
  const snapshot = new Database(path.join(backupDir, DATABASE), { readonly: true, fileMustExist: true });
  try {
    await snapshot.backup(databaseFile(dataDir), { progress: () => ALL_PAGES });
  } finally {
    snapshot.close();
  }

  // Checked again where it landed.
  const integrity = integrityOf(databaseFile(dataDir));
  if (integrity !== 'ok') throw new BackupError(`The restored database fails its integrity check: ${integrity}`);
  for (const entry of manifest.media) {
    const restored = await hashFile(path.join(live.root, entry.path)).catch(() => undefined);
    if (restored?.sha256 !== entry.sha256) throw new BackupError(`media/${entry.path} did not restore as backed up.`);
  }
  return { ...summary(manifest, started), running, createdAt: manifest.createdAt, mediaBucket: manifest.mediaBucket };
}
