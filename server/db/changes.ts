import type Database from 'better-sqlite3';

// What the in-memory caches need to know (server/db/cache.ts): has anything they may hold changed
// since they were filled? Every statement this connection prepares is looked at once, when
// prepared, for the tables it writes; each run of it then counts as a change to those tables'
// scopes, at no cost. Writes by other processes (the other servers of WEB_CONCURRENCY, the CLI)
// are counted in the database itself, in change_versions: triggers on the tables of each scope
// (setChangeTriggers) make whoever writes bump the scope's row in the same transaction. A page
// view or a login throttle in another process (tables of no scope) empties no cache; SQLite's
// data_version, which moves on any commit, would empty them all. Counting too much only empties a
// cache more often; counting too little would show stale data, so the public scope is
// "everything but the tables listed", and a table added later counts until it is listed.

/** Tables no public fundraiser or artist JSON is made from, and which cascade into none. */
const NEVER_PUBLIC = new Set([
  'sessions',
  'throttle_events',
  'analytics_daily_counts',
  'jobs',
  'child_processes',
  'email_verification_codes',
  'email_changes',
  'password_reset_tokens',
  'mailing_list_subscribers',
  'payment_events',
  'test_payment_intents',
  'change_versions',
  'upload_reservations',
  // Embed views and plays, counted per day (a share's count is the fundraiser's own column).
  'fundraiser_daily_counts',
]);

/** What a session lookup reads: the session and its user (whose deletion takes its sessions). */
const SESSION_TABLES = new Set(['sessions', 'users']);

/**
 * 'grants' is no table's: it counts the writes that may take music away from someone (a refund, a
 * deleted album), bumped by whoever makes them (server/access/stream-grants.ts).
 */
export type ChangeScope = 'public' | 'sessions' | 'grants';

/** The scopes a write to `table` changes. */
function scopesOfTable(table: string): ChangeScope[] {
  const name = table.toLowerCase();
  const scopes: ChangeScope[] = [];
  if (!NEVER_PUBLIC.has(name)) scopes.push('public');
  if (SESSION_TABLES.has(name)) scopes.push('sessions');
  return scopes;
}

const WRITE_TARGET =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?([A-Za-z_][\w]*)/gi;

/** The scopes whose data running this SQL may change. */
export function scopesWritten(source: string): ChangeScope[] {
  const scopes = new Set<ChangeScope>();
  for (const [, table] of source.matchAll(WRITE_TARGET)) {
    // An upsert's `on conflict … do update set …` writes the insert's own table, already counted:
    // `set` is that clause's word, no table's (a page view or an embed's count is no public write).
    if (table!.toLowerCase() === 'set') continue;
    for (const scope of scopesOfTable(table!)) scopes.add(scope);
  }
  return [...scopes];
}

/**
 * How stale another process's writes may be seen when the server runs alone: the CLI's changes
 * show within this. With several server processes they show at once (see watchOthers).
 */
export const OTHERS_CHECK_MS = 200;

const SCOPES: ChangeScope[] = ['public', 'sessions', 'grants'];

export type ChangeTracker = {
  /** Changes so far in a scope, by this connection and others: equal answers mean none between. */
  version(scope: ChangeScope): [local: number, others: number];
  /** Counts a change to `scope` that no table write stands for (a revoked grant), for every process. */
  bump(scope: ChangeScope): void;
  inTransaction(): boolean;
  /**
   * Starts reading every connection's writes from change_versions (call once the migrations and
   * setChangeTriggers have run). `atOnce`: look at the others' counts on every turn
   * of the event loop that asks (several servers share the file, and a fundraiser saved through
   * one must read fresh through the next at once), instead of every OTHERS_CHECK_MS.
   */
  watchOthers(options: { atOnce: boolean }): void;
};

/** Whether a table of the file is an ordinary one that writes can be watched on (not FTS's own). */
const watchable = (table: { name: string; type: string }) =>
  table.type === 'table' &&
  !table.name.startsWith('sqlite_') &&
  table.name !== '__drizzle_migrations' &&
  table.name !== 'change_versions';

const TRIGGER_PREFIX = 'count_changes_';

/**
 * Sets the triggers that count each write to a scope's tables in change_versions, in the file
 * itself: a write from anywhere (another server, the CLI, an operator's sqlite3 shell) is counted.
 * Run after the migrations, by whoever ran them: a table they added is watched from then on, and
 * a trigger that no longer matches the scopes above is made again.
 */
export function setChangeTriggers(sqlite: Database.Database) {
  const tables = (sqlite.pragma('main.table_list') as { name: string; type: string }[]).filter(watchable);
  const wanted = new Map<string, string>();
  for (const table of tables) {
    const scopes = scopesOfTable(table.name);
    if (scopes.length === 0) continue;
    const inScopes = scopes.map((scope) => `'${scope}'`).join(', ');
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      const name = `${TRIGGER_PREFIX}${table.name}_${event.toLowerCase()}`;
      wanted.set(
        name,
        `CREATE TRIGGER "${name}" AFTER ${event} ON "${table.name}" ` +
          `BEGIN UPDATE change_versions SET version = version + 1 WHERE scope IN (${inScopes}); END`,
      );
    }
  }
  const existing = sqlite
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?`)
    .all(TRIGGER_PREFIX.length, TRIGGER_PREFIX) as { name: string; sql: string }[];
  const have = new Map(existing.map((row) => [row.name, row.sql]));
  const stale = existing.filter((row) => wanted.get(row.name) !== row.sql).map((row) => row.name);
  const missing = [...wanted].filter(([name, sql]) => have.get(name) !== sql);
  if (stale.length === 0 && missing.length === 0) return;
  sqlite.transaction(() => {
    for (const name of stale) sqlite.exec(`DROP TRIGGER "${name}"`);
    for (const [, sql] of missing) sqlite.exec(sql);
  })();
}

/** Counts the connection's writes from now on (call before anything is prepared on it). */
export function trackChanges(sqlite: Database.Database): ChangeTracker {
  const counts: Record<ChangeScope, number> = { public: 0, sessions: 0, grants: 0 };
  const count = (scopes: ChangeScope[]) => {
    for (const scope of scopes) counts[scope]++;
  };
  const prepare = sqlite.prepare.bind(sqlite);
  const watched = ['run', 'get', 'all', 'iterate'] as const;
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    const scopes = scopesWritten(source);
    if (scopes.length === 0) return statement;
    for (const method of watched) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
        try {
          return original.apply(this, args);
        } finally {
          count(scopes);
        }
      };
    }
    return statement;
  }) as typeof sqlite.prepare;
  const exec = sqlite.exec.bind(sqlite);
  sqlite.exec = ((source: string) => {
    try {
      return exec(source);
    } finally {
      count(scopesWritten(source));
    }
  }) as typeof sqlite.exec;

  const others: Record<ChangeScope, number> = { public: 0, sessions: 0, grants: 0 };
  let readOthers: (() => void) | undefined;
  let bumpShared: ((scope: ChangeScope) => void) | undefined;
  return {
    version: (scope) => {
      readOthers?.();
      return [counts[scope], others[scope]];
    },
    bump(scope) {
      counts[scope]++;
      bumpShared?.(scope);
    },
    inTransaction: () => sqlite.inTransaction,
    watchOthers({ atOnce }) {
      const versions = prepare('SELECT scope, version FROM change_versions').raw();
      const bumpOne = prepare('UPDATE change_versions SET version = version + 1 WHERE scope = ?');
      bumpShared = (scope) => bumpOne.run(scope);
      const read = () => {
        for (const [scope, version] of versions.all() as [ChangeScope, number][]) {
          if (SCOPES.includes(scope)) others[scope] = version;
        }
      };
      read();
      if (atOnce) {
        // Asking SQLite costs about as much as the rest of a cached answer: asked once per turn of
        // the event loop (each request's synchronous work), whatever number of caches it reads.
        let fresh = true;
        queueMicrotask(() => (fresh = false));
        readOthers = () => {
          if (fresh) return;
          read();
          fresh = true;
          queueMicrotask(() => (fresh = false));
        };
      } else {
        let checkedAt = performance.now();
        readOthers = () => {
          const now = performance.now();
          if (now - checkedAt < OTHERS_CHECK_MS) return;
          read();
          checkedAt = now;
        };
      }
    },
  };
}
