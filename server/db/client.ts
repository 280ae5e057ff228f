import fs from 'node:fs';
import path from 'node:path';
import Database, { type RunResult } from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { projectRoot } from '../paths';
import { type ChangeTracker, trackChanges } from './changes';
import * as schema from './schema';

/** The database or a transaction on it: queries accept either. */
export type Db = BaseSQLiteDatabase<'sync', RunResult, typeof schema>;

const migrationsFolder = path.join(projectRoot, 'drizzle');

/** Opens (creating when missing) the SQLite file and applies every pending migration. */
export function openDatabase(file: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  // WAL lets readers and the single writer work side by side; the busy timeout makes a second
  // process (the CLI while the server runs) wait instead of failing with SQLITE_BUSY.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // FULL: a committed donation survives a power cut too, not only a crash of the process (with
  // WAL, NORMAL may lose the last transactions to a power cut). Money first (issue 10).
  sqlite.pragma('synchronous = FULL');
  const tracker = trackChanges(sqlite);
  const db = drizzle(sqlite, { schema });
  trackers.set(db, tracker);
  migrate(db, { migrationsFolder });
  return { db, sqlite };
}

const trackers = new WeakMap<Db, ChangeTracker>();

/** The change tracker of a database opened here; none for a transaction's handle. */
export function changeTracker(db: Db): ChangeTracker | undefined {
  return trackers.get(db);
}

/** How many migrations this version has (a backup made by a newer version has more). */
export function knownMigrationCount(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}
