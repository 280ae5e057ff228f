import type { Db } from './client';
import { changeTracker } from './client';

/**
 * A small cache of what anyone may see (a public fundraiser's or artist's JSON), per database,
 * emptied whenever the database may have changed it (server/db/changes.ts): any write to a table
 * it could come from, by this process or another. Never for what depends on who asks. In a
 * transaction nothing is kept, since what it reads may yet be rolled back.
 */
export function publicCache<V>(maxEntries: number) {
  const byDb = new WeakMap<Db, { local: number; others: number; entries: Map<string, V> }>();
  return {
    get(db: Db, key: string, load: () => V | undefined): V | undefined {
      const tracker = changeTracker(db);
      if (!tracker || tracker.inTransaction()) return load();
      const [local, others] = tracker.version();
      let state = byDb.get(db);
      if (!state || state.local !== local || state.others !== others) {
        state = { local, others, entries: new Map() };
        byDb.set(db, state);
      }
      const hit = state.entries.get(key);
      if (hit !== undefined) return hit;
      const value = load();
      // Loading reads only, but a version that moved meanwhile means it may be stale already.
      const [localAfter, othersAfter] = tracker.version();
      if (value === undefined || localAfter !== local || othersAfter !== others) return value;
      if (state.entries.size >= maxEntries) state.entries.delete(state.entries.keys().next().value!);
      state.entries.set(key, value);
      return value;
    },
  };
}
