import type { ChangeScope } from './changes';
import type { Db } from './client';
import { changeTracker } from './client';

/** How much a cache may hold: entries, and optionally their total size as `sizeOf` counts it. */
export type CacheLimits<V> = { maxEntries: number; maxBytes?: number; sizeOf?: (value: V) => number };

/**
 * A small in-memory cache of what the database says, per database, emptied whenever a write may
 * have changed what it holds (server/db/changes.ts): any write to a table of its scope, by this
 * process or another. In a transaction nothing is kept, since what it reads may yet be rolled
 * back. At most `maxEntries` (and `maxBytes`, when the values' sizes are counted), the oldest
 * going first.
 */
export function changeAwareCache<V>(scope: ChangeScope, limits: number | CacheLimits<V>) {
  const { maxEntries, maxBytes = Infinity, sizeOf } = typeof limits === 'number' ? { maxEntries: limits } : limits;
  type State = { local: number; others: number; entries: Map<string, V>; bytes: number };
  const byDb = new WeakMap<Db, State>();
  const evictOldest = (state: State) => {
    const [oldestKey, oldest] = state.entries.entries().next().value!;
    state.entries.delete(oldestKey);
    if (sizeOf) state.bytes -= sizeOf(oldest);
  };
  return {
    get(db: Db, key: string, load: () => V | undefined): V | undefined {
      const tracker = changeTracker(db);
      if (!tracker || tracker.inTransaction()) return load();
      const [local, others] = tracker.version(scope);
      let state = byDb.get(db);
      if (!state || state.local !== local || state.others !== others) {
        state = { local, others, entries: new Map(), bytes: 0 };
        byDb.set(db, state);
      }
      const hit = state.entries.get(key);
      if (hit !== undefined) return hit;
      const value = load();
      // A version that moved while loading means what was loaded may be stale already.
      const [localAfter, othersAfter] = tracker.version(scope);
      if (value === undefined || localAfter !== local || othersAfter !== others) return value;
      const size = sizeOf ? sizeOf(value) : 0;
      // One value larger than the whole budget is served, never kept.
      if (size > maxBytes) return value;
      while (state.entries.size >= maxEntries || (state.entries.size > 0 && state.bytes + size > maxBytes)) {
        evictOldest(state);
      }
      state.entries.set(key, value);
      state.bytes += size;
      return value;
    },
  };
}

/**
 * What anyone may see (a public fundraiser's or artist's JSON), never what depends on who asks.
 * Emptied by any write but to the tables that make no public page (changes.ts).
 */
export const publicCache = <V>(limits: number | CacheLimits<V>) => changeAwareCache<V>('public', limits);
