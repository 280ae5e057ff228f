// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as PageSettled from '../../client/lib/page-settled';

// What the visitor may use next loads once they act on the page, not on a timer (issue 24:
// loaded while the page was only being read, those modules were a third of its blocking time).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let pageSettled: typeof PageSettled;

beforeEach(async () => {
  // The module's state (settled, acted) is the page's: each test starts a page of its own.
  vi.resetModules();
  pageSettled = await import('../../client/lib/page-settled');
});

afterEach(() => {
  document.body.innerHTML = '';
});

/** The app drawing its first page, as the layout does. */
async function drawFirstPage() {
  function Layout() {
    pageSettled.useFirstPageDrawn();
    return null;
  }
  const root = createRoot(document.body.appendChild(document.createElement('div')));
  await act(async () => root.render(<Layout />));
  return root;
}

describe('whenVisitorActs', () => {
  it.each(['pointerdown', 'touchstart', 'keydown'])('waits for the first %s, then runs at once', (type) => {
    const first = vi.fn();
    pageSettled.whenVisitorActs(first);
    window.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('pointermove'));
    expect(first).not.toHaveBeenCalled();

    window.dispatchEvent(new Event(type));
    window.dispatchEvent(new Event(type));
    expect(first).toHaveBeenCalledTimes(1);

    const later = vi.fn();
    pageSettled.whenVisitorActs(later);
    expect(later).toHaveBeenCalledTimes(1);
  });
});

describe('whenVisitorActs, cancelled', () => {
  it('runs nothing once cancelled', () => {
    const cancelled = vi.fn();
    pageSettled.whenVisitorActs(cancelled)();
    window.dispatchEvent(new Event('keydown'));
    expect(cancelled).not.toHaveBeenCalled();
  });
});

describe('loadInIdleTurns', () => {
  it('loads nothing on a settled page nobody acts on, and everything in order once they do', async () => {
    const loaded: string[] = [];
    const load = (name: string) => () => Promise.resolve(void loaded.push(name));
    pageSettled.loadInIdleTurns(load('schemas'), load('menus'));
    const root = await drawFirstPage();

    let settled = false;
    pageSettled.whenPageSettled(() => (settled = true));
    await vi.waitFor(() => expect(settled).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loaded).toEqual([]);

    window.dispatchEvent(new Event('pointerdown'));
    await vi.waitFor(() => expect(loaded).toEqual(['schemas', 'menus']));
    act(() => root.unmount());
  });
});
