import { type ReactNode, startTransition, useEffect, useState } from 'react';

// When the first page has settled: the window has loaded, the app has drawn its first page, and
// the browser then had a quiet moment. What only matters later waits for it (the service worker
// and its update prompt, the offline store's sync), so none of it competes with the first page for
// a phone's CPU or bandwidth (issue 13). The window's load event alone comes too early: the app
// draws after it, once its deferred stylesheets apply.
//
// What the visitor may use next (the answers' schemas, the header's menus and login, the footer's
// form) waits, beyond that, for the visitor to act: a touch, a click or a key. Loaded on a timer,
// each load's module ran as a long task while the visitor was still reading or starting to
// scroll, and together they were a third of the landing page's blocking time (issue 24); a touch
// comes a few hundred milliseconds before the tap it starts, and a page opened and only read
// never loads them.

/** A moment that comes once in a page's life: tasks wait for it, or run at once once it has come. */
function moment() {
  let come = false;
  const waiting = new Set<() => void>();
  return {
    hasCome: () => come,
    come() {
      if (come) return;
      come = true;
      for (const task of waiting) task();
      waiting.clear();
    },
    /** Runs `task` when the moment comes (at once if it has); returns a cancel. */
    run(task: () => void): () => void {
      if (come) {
        task();
        return () => {};
      }
      waiting.add(task);
      return () => waiting.delete(task);
    },
  };
}

let loaded = false;
let drawn = false;
const settled = moment();

function whenIdle(task: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 200);
}

function settleWhenReady() {
  if (settled.hasCome() || !loaded || !drawn) return;
  whenIdle(settled.come);
}

if (typeof window !== 'undefined') {
  const onLoad = () => {
    loaded = true;
    settleWhenReady();
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
}

/** Runs `task` once the first page has settled (at once if it has); returns a cancel. */
export const whenPageSettled = settled.run;

/** The events that say the visitor is acting on the page, not just looking at it. */
const ACTS = ['pointerdown', 'touchstart', 'keydown'] as const;

const acted = moment();

if (typeof window !== 'undefined') {
  const onAct = () => {
    for (const type of ACTS) window.removeEventListener(type, onAct, { capture: true });
    acted.come();
  };
  for (const type of ACTS) window.addEventListener(type, onAct, { capture: true, passive: true });
}

/**
 * Runs `task` once the visitor first touches, clicks or presses a key on the page (at once if
 * they have); returns a cancel.
 */
export const whenVisitorActs = acted.run;

/**
 * A later turn of the event loop. Modules evaluated back to back (a chunk and everything it
 * imports) are one task, however many; awaited between them, each is its own, and a tap waits for
 * the shorter (issue 24).
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The loads queued by loadInIdleTurns, one after the other. */
let turns: Promise<unknown> | undefined;

/**
 * Loads code the visitor may need soon, once the first page has settled and the visitor has
 * acted on it (above), one load at a time, each in a quiet moment of its own: loaded together,
 * their modules would run in one long task just as the visitor starts to scroll or tap
 * (Lighthouse's Total Blocking Time).
 */
export function loadInIdleTurns(...loads: (() => Promise<unknown>)[]): void {
  turns ??= new Promise<void>((resolve) => whenPageSettled(() => whenVisitorActs(resolve)));
  for (const load of loads) {
    turns = turns.then(() => new Promise((resolve) => whenIdle(() => void load().then(resolve, resolve))));
  }
}

/** Called by the layout once it has drawn its first page. */
export function useFirstPageDrawn(): void {
  useEffect(() => {
    drawn = true;
    settleWhenReady();
  }, []);
}

/**
 * True once the first page has settled (see above). What it reveals is drawn as a transition, in
 * slices of a few milliseconds (a store's news through useSyncExternalStore is drawn in one go:
 * ten rows' download menus and the offline store's reader were one task of ~50 ms on an album in
 * Your music, a phone's ~200 ms).
 */
export function usePageSettled(): boolean {
  const [hasSettled, setSettled] = useState(settled.hasCome);
  useEffect(() => whenPageSettled(() => startTransition(() => setSettled(true))), []);
  return hasSettled;
}

/**
 * Its children once the first page has settled (at once when `now`). Only they draw at that
 * moment, not the page around them: a page that read usePageSettled itself was drawn again whole
 * (issue 24).
 */
export function AfterPageSettled({ children, now = false }: { children: ReactNode; now?: boolean }): ReactNode {
  return usePageSettled() || now ? children : null;
}
