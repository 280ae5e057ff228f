import type { ChangeScope } from './changes';
import type { Db } from './client';
import { changeTracker } from './client';

/**
 * A small in-memory cache of what the database says, per database, emptied whenever a write may
 * have changed what it holds (server/db/changes.ts): any write to a table of its scope, by this
 * process or another. In a transaction nothing is kept, since what it reads may yet be rolled
 * back. At most `maxEntries`, the oldest going first.
 */
export function changeAwareCache<V>(scope: ChangeScope, maxEntries: number) {
  const byDb = new WeakMap<Db, { local: number; others: number; entries: Map<string, V> }>();
  return {
    get(db: Db, key: string, load: () => V | undefined): V | undefined {
      const tracker = changeTracker(db);
      if (!tracker || tracker.inTransaction()) return load();
      const [local, others] = tracker.version(scope);
      let state = byDb.get(db);
      if (!state || state.local !== local || state.others !== others) {
        state = { local, others, entries: new Map() };
        byDb.set(db, state);
      }
      const hit = state.entries.get(key);
      if (hit !== undefined) return hit;
      const value = load();
      // A version that moved while loading means what was loaded may be stale already.
      const [localAfter, othersAfter] = tracker.version(scope);
      if (value === undefined || localAfter !== local || othersAfter !== others) return value;
      if (state.entries.size >= maxEntries) state.entries.delete(state.entries.keys().next().value!);
      state.entries.set(key, value);
      return value;
    },
  };
}

/**
 * What anyone may see (a public fundraiser's or artist's JSON), never what depends on who asks.
 * Emptied by any write but to the tables that make no public page (changes.ts).
 */
export const publicCache = <V>(maxEntries: number) => changeAwareCache<V>('public', maxEntries);
