// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../client/lib/query-client';
import { trackTarget } from '../../client/ui/download-formats-api';
import { TrackDownloadButton } from '../../client/ui/track-download-button';
import type { AlbumFormats } from '../../shared/answers/formats';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// A track's download button pressed before its menu's code has arrived (issue 24): the row's
// button stays as it is, says it is busy, and the real menu opens once the code is there, its
// first item focused after a press by keys. The code's arrival is held here, as a slow network
// would; in Chromium the service worker's precache makes holding it unreliable (e2e covers the
// menu once its code is there).

const arrival = vi.hoisted(() => {
  let release = () => undefined as void;
  const state = {
    held: Promise.resolve(),
    fails: false,
    asked: 0,
    hold() {
      state.held = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
  };
  return state;
});

vi.mock('../../client/ui/download-track-menu', async (importOriginal) => {
  arrival.asked++;
  await arrival.held;
  if (arrival.fails) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

const formats: AlbumFormats = {
  formats: [
    { id: 'original', label: 'Original (WAV)', lossless: true, available: false, approxBytes: 0, reason: 'Not kept' },
    { id: 'mp3-320', label: 'MP3 320 kbps', lossless: false, available: true, approxBytes: 8_000_000 },
  ],
};

/**
 * Waits until `check` passes, letting the page run inside act meanwhile (the menu's code arriving,
 * its formats' answer, Radix's own updates), as a browser would between frames. Long enough for a
 * busy machine, where compiling the menu's module (Radix and all) takes seconds: nothing here is
 * timed, only waited for.
 */
const pageRuns = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));
const until = (check: () => void) =>
  vi.waitFor(
    async () => {
      await pageRuns();
      check();
    },
    { timeout: 15_000, interval: 1 },
  );

let root: Root | undefined;
beforeEach(() => {
  arrival.hold();
  arrival.fails = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(formats), { headers: { 'content-type': 'application/json' } })),
  );
});
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
  queryClient.clear();
  vi.unstubAllGlobals();
});

async function renderButton() {
  const container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  await act(async () =>
    root!.render(
      <QueryClientProvider client={queryClient}>
        <TrackDownloadButton
          target={trackTarget({ id: 7, name: 'Low Tide' }, 3)}
          trackSeconds={120}
          albumSeconds={[120, 240]}
          onChoose={() => undefined}
        />
      </QueryClientProvider>,
    ),
  );
  return container.querySelector('button')!;
}

/** A press as the browser reports it: by keys (Enter, Space), a click of detail 0. */
const press = (button: HTMLButtonElement, by: 'keys' | 'pointer') =>
  act(async () => {
    button.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: by === 'keys' ? 0 : 1 }));
  });

describe('a track download button, pressed before and after its menu has arrived', { timeout: 30_000 }, () => {
  // The failures first: once the menu's code is there, it is kept for every later button.
  it('says why when the code cannot be loaded, and the next press asks for it again', async () => {
    arrival.fails = true;
    const button = await renderButton();
    await press(button, 'pointer');
    expect(button.getAttribute('aria-busy')).toBe('true');
    arrival.release();
    await until(() => expect(button.getAttribute('aria-busy')).toBeNull());
    expect(button.title).toBe('The formats could not be loaded. Please try again.');
    expect(document.querySelector('[role="menu"]')).toBeNull();
    expect(arrival.asked).toBe(1);

    arrival.hold();
    await press(button, 'pointer');
    expect(arrival.asked).toBe(2);
    expect(button.title).toBe('Download this track');
    expect(button.getAttribute('aria-busy')).toBe('true');
    arrival.release();
    await until(() => expect(button.title).toBe('The formats could not be loaded. Please try again.'));
  });

  it('stays the same button, busy, until the menu arrives; then opens with its first item focused', async () => {
    const button = await renderButton();
    button.focus();
    await press(button, 'keys');
    expect(document.querySelectorAll('button')).toHaveLength(1);
    expect(document.querySelector('button')).toBe(button);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(document.activeElement).toBe(button);
    expect(document.querySelector('[role="menu"]')).toBeNull();

    arrival.release();
    await until(() => expect(document.querySelector('[role="menu"]')).not.toBeNull());
    expect(document.querySelector('[role="menu"]')!.textContent).toContain('Download “Low Tide” as');
    await until(() => expect(document.activeElement?.textContent).toContain('MP3 320 kbps'));
    expect(document.activeElement?.getAttribute('role')).toBe('menuitem');
  });

  it('opened by a pointer, leaves the focus with the menu itself, as Radix does', async () => {
    const button = await renderButton();
    await press(button, 'pointer');
    arrival.release();
    await until(() => expect(document.querySelector('[role="menu"]')?.textContent).toContain('MP3 320 kbps'));
    // Long enough for the first item's focus, had a press by keys asked for it (a frame).
    await pageRuns();
    expect(document.activeElement?.getAttribute('role')).toBe('menu');
  });
});
