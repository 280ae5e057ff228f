import type Database from 'better-sqlite3';

// What the public JSON cache (server/db/public-cache.ts) needs to know: has anything it may
// hold changed since it was filled? Every statement this connection prepares is looked at once,
// when prepared: one that writes to a table other than those below counts, each time it runs.
// Writes by another process (the CLI) show in SQLite's data_version. Counting too much only
// empties the cache more often; counting too little would show stale pages, so the list below
// is of what cannot matter, and a table added later counts until it is listed.

/** Tables no public fundraiser or artist JSON is made from, and which cascade into none. */
const NEVER_PUBLIC = new Set([
  'sessions',
  'throttle_events',
  'analytics_daily_counts',
  'jobs',
  'email_verification_codes',
  'email_changes',
  'password_reset_tokens',
  'mailing_list_subscribers',
  'payment_events',
  'test_payment_intents',
]);

const WRITE_TARGET =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?([A-Za-z_][\w]*)/gi;

/** Whether running this SQL may change what the public sees. */
export function mayChangePublicData(source: string): boolean {
  for (const [, table] of source.matchAll(WRITE_TARGET)) {
    if (!NEVER_PUBLIC.has(table!.toLowerCase())) return true;
  }
  return false;
}

export type ChangeTracker = {
  /** Changes so far, by this connection and others: equal answers mean nothing changed between. */
  version(): [local: number, others: number];
  inTransaction(): boolean;
};

/** Counts the connection's writes from now on (call before anything is prepared on it). */
export function trackChanges(sqlite: Database.Database): ChangeTracker {
  let local = 0;
  const prepare = sqlite.prepare.bind(sqlite);
  const watched = ['run', 'get', 'all', 'iterate'] as const;
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!mayChangePublicData(source)) return statement;
    for (const method of watched) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
        try {
          return original.apply(this, args);
        } finally {
          local++;
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
      if (mayChangePublicData(source)) local++;
    }
  }) as typeof sqlite.exec;
  const dataVersion = prepare('PRAGMA data_version').pluck();
  return {
    version: () => [local, dataVersion.get() as number],
    inTransaction: () => sqlite.inTransaction,
  };
}
