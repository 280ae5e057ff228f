import type { Db } from './client';

/**
 * A query built once per database and reused (issue 13): drizzle builds a query's SQL anew on
 * every call and better-sqlite3 prepares it again, which cost a public page's request about 40 %
 * of its CPU. `build` makes the drizzle `.prepare()`d query, with `sql.placeholder`s for its
 * values; the hot read paths use it with the app's database. A transaction's handle is another
 * object than the database, so it gets its own (short-lived) statements.
 */
export function preparedQuery<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let query = byDb.get(db);
    if (query === undefined) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
