import type Database from 'better-sqlite3';

// What the in-memory caches need to know (server/db/cache.ts): has anything they may hold changed
// since they were filled? Every statement this connection prepares is looked at once, when
// prepared, for the tables it writes; each run of it then counts as a change to those tables'
// scopes. Writes by another process (the CLI) show in SQLite's data_version, looked at every
// OTHERS_CHECK_MS. Counting too much only empties a cache more often; counting too little would
// show stale data, so the public scope is "everything but the tables listed", and a table added
// later counts until it is listed.

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
]);

/** What a session lookup reads: the session and its user (whose deletion takes its sessions). */
const SESSION_TABLES = new Set(['sessions', 'users']);

export type ChangeScope = 'public' | 'sessions';

const WRITE_TARGET =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?([A-Za-z_][\w]*)/gi;

/** The scopes whose data running this SQL may change. */
export function scopesWritten(source: string): ChangeScope[] {
  const scopes = new Set<ChangeScope>();
  for (const [, table] of source.matchAll(WRITE_TARGET)) {
    const name = table!.toLowerCase();
    if (!NEVER_PUBLIC.has(name)) scopes.add('public');
    if (SESSION_TABLES.has(name)) scopes.add('sessions');
  }
  return [...scopes];
}

/** How stale another process's writes may be seen: the CLI's changes show within this. */
export const OTHERS_CHECK_MS = 200;

export type ChangeTracker = {
  /** Changes so far in a scope, by this connection and others: equal answers mean none between. */
  version(scope: ChangeScope): [local: number, others: number];
  inTransaction(): boolean;
};

/** Counts the connection's writes from now on (call before anything is prepared on it). */
export function trackChanges(sqlite: Database.Database): ChangeTracker {
  const counts: Record<ChangeScope, number> = { public: 0, sessions: 0 };
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
  // Asking SQLite costs more than the rest of a cached answer, so it is asked at most every
  // OTHERS_CHECK_MS: another process's write (the CLI's) shows within that time.
  const dataVersion = prepare('PRAGMA data_version').pluck();
  let others = dataVersion.get() as number;
  let checkedAt = performance.now();
  const othersNow = () => {
    const now = performance.now();
    if (now - checkedAt >= OTHERS_CHECK_MS) {
      others = dataVersion.get() as number;
      checkedAt = now;
    }
    return others;
  };
  return {
    version: (scope) => [counts[scope], othersNow()],
    inTransaction: () => sqlite.inTransaction,
  };
}
