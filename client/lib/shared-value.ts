import { useSyncExternalStore } from 'react';

// A value one part of the app sets and components elsewhere read, for the few that live outside
// react-query's cache and need no store library: who the server confirmed (session.ts), whether
// this tab plays a guest's tracks (player-dock.tsx), whether music plays here (playing-here.ts).

export type SharedValue<T> = {
  get: () => T;
  /** Changes the value and tells every reader; the same value again tells nobody. */
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
};

export function sharedValue<T>(initial: T): SharedValue<T> {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(value) {
      if (Object.is(current, value)) return;
      current = value;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The value, kept current; `initial` where the page is drawn without a browser and while hydrating. */
export function useSharedValue<T>(shared: SharedValue<T>, initial: T): T {
  return useSyncExternalStore(shared.subscribe, shared.get, () => initial);
}
