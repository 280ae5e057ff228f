import fs from 'node:fs';
import path from 'node:path';
import Database, { type RunResult } from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { projectRoot } from '../paths';
import { type ChangeTracker, setChangeTriggers, trackChanges } from './changes';
import * as schema from './schema';

/** The database or a transaction on it: queries accept either. */
export type Db = BaseSQLiteDatabase<'sync', RunResult, typeof schema>;

const migrationsFolder = path.join(projectRoot, 'drizzle');

export type OpenOptions = {
  /**
   * Other server processes share the file (WEB_CONCURRENCY): their writes must empty this
   * process's caches at once, not within OTHERS_CHECK_MS (server/db/changes.ts).
   */
  sharedByServers?: boolean;
  /** Apply pending migrations (the default); a server process started after they ran skips it. */
  migrate?: boolean;
  /** Told how long each write transaction waited for the write lock (metrics). */
  onWriteLockWait?: (seconds: number) => void;
};

/** Opens (creating when missing) the SQLite file and applies every pending migration. */
export function openDatabase(file: string, options: OpenOptions = {}) {
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
  // Every transaction here writes. A deferred one reads first and asks for the write lock at its
  // first write; if another connection (another server process, the CLI) has committed since its
  // read began, SQLite answers SQLITE_BUSY at once, without waiting out busy_timeout. IMMEDIATE
  // takes the write lock at BEGIN, waiting its turn, so it never meets that.
  const transaction = db.transaction.bind(db);
  const waited = options.onWriteLockWait;
  db.transaction = ((run, config) => {
    if (!waited) return transaction(run, { behavior: 'immediate', ...config });
    const asked = performance.now();
    // `run` starts once BEGIN has the lock: the time until then is the wait.
    return transaction(
      (tx) => {
        waited((performance.now() - asked) / 1000);
        return run(tx);
      },
      { behavior: 'immediate', ...config },
    );
  }) as typeof db.transaction;
  trackers.set(db, tracker);
  if (options.migrate ?? true) {
    migrate(db, { migrationsFolder });
    setChangeTriggers(sqlite);
  }
  tracker.watchOthers({ atOnce: options.sharedByServers ?? false });
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
