// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { albumTarget } from '../../client/ui/download-formats-api';
import { useDownloadPreparation } from '../../client/ui/download-preparation';
import { DownloadStatus } from '../../client/ui/download-status';
import { queryClient } from '../../client/lib/query-client';
import type { FormatPreparation } from '../../shared/answers/formats';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Preparing a download (issue 27) with the real hook, status and query client over answers given at
// the network boundary (fetch): progress as the server counts tracks, the download started once by
// itself, the failed track with Try again, and a page opened again picking up where it was — the
// tab that asked downloading, another tab only shown the link.

const target = albumTarget({ id: 3, name: 'Harbor Songs' }, { via: 'library' });
const path = '/api/music-library/album/3/formats/flac';
const downloadUrl = '/api/music-library/album/3/download?format=flac';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const flac = (status: FormatPreparation['status'], readyTracks: number, extra: Partial<FormatPreparation> = {}) =>
  ({ format: 'flac', status, readyTracks, totalTracks: 3, downloadUrl, ...extra }) satisfies FormatPreparation;

/** The server's answers, in turn, for POST and GET of the FLAC preparation. */
let posts: FormatPreparation[] = [];
let gets: FormatPreparation[] = [];
const calls: string[] = [];
let downloads: string[] = [];

function Harness() {
  const download = useDownloadPreparation(target);
  return (
    <div>
      <button type="button" onClick={() => download.choose('flac')}>
        FLAC
      </button>
      <DownloadStatus target={target} download={download} />
    </div>
  );
}

const roots: Root[] = [];
async function render() {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  roots.push(root);
  await act(async () =>
    root.render(
      <QueryClientProvider client={queryClient}>
        <Harness />
      </QueryClientProvider>,
    ),
  );
  const status = () => container.querySelector('[role="status"]')?.textContent ?? '';
  return { container, status };
}

async function until(check: () => boolean) {
  for (let tries = 0; tries < 200 && !check(); tries++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  expect(check()).toBe(true);
}

beforeEach(() => {
  posts = [];
  gets = [];
  calls.length = 0;
  downloads = [];
  sessionStorage.clear();
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url}`);
      const next = url === path ? (method === 'POST' ? posts.shift() : gets.shift()) : undefined;
      if (!next) return Promise.resolve(json({ code: 'OTHER', message: 'Not found.' }, 404));
      return Promise.resolve(json(next, next.status === 'ready' ? 200 : 202));
    }),
  );
  // The download a link with `download` starts: recorded, not followed.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.getAttribute('href') ?? '');
  });
});

afterEach(async () => {
  await act(async () => roots.splice(0).forEach((root) => root.unmount()));
  await queryClient.cancelQueries();
  queryClient.clear();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// Each preparation is read again every 1.5 s, as in the browser.
describe('preparing a download', { timeout: 15_000 }, () => {
  it('shows the tracks counted, then starts the download once by itself and offers its link', async () => {
    posts = [flac('preparing', 1)];
    gets = [flac('preparing', 2), flac('ready', 3)];
    const { container, status } = await render();
    expect(status()).toBe('');
    await act(async () => container.querySelector('button')!.click());
    await until(() => status() === 'Preparing FLAC · 1 of 3 tracks');
    const bar = container.querySelector('progress')!;
    expect([bar.getAttribute('max'), bar.getAttribute('value')]).toEqual(['3', '1']);
    expect(bar.getAttribute('aria-labelledby')).toBe(container.querySelector('[role="status"]')!.id);
    await until(() => status() === 'Preparing FLAC · 2 of 3 tracks');
    await until(() => status() === 'FLAC is ready. Your download has started.');
    expect(downloads).toEqual([downloadUrl]);
    const link = [...container.querySelectorAll('a')].find((a) => a.textContent === 'Download FLAC');
    expect(link?.getAttribute('href')).toBe(downloadUrl);
    // Ready: no more asking, no second download, and nothing left to pick up on a reload.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1800)));
    expect(calls).toEqual([`POST ${path}`, `GET ${path}`, `GET ${path}`]);
    expect(downloads).toHaveLength(1);
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it('downloads again when the same format is chosen again, once more', async () => {
    posts = [flac('ready', 3), flac('ready', 3)];
    const { container, status } = await render();
    await act(async () => container.querySelector('button')!.click());
    await until(() => status() === 'FLAC is ready. Your download has started.');
    await act(async () => container.querySelector('button')!.click());
    await until(() => downloads.length === 2);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(downloads).toEqual([downloadUrl, downloadUrl]);
    expect(calls).toEqual([`POST ${path}`, `POST ${path}`]);
  });

  it('names the track that failed, and Try again asks the server again', async () => {
    posts = [
      flac('failed', 2, { failed: { trackId: 8, trackName: 'Gulls', message: 'The file could not be read.' } }),
      flac('ready', 3),
    ];
    const { container, status } = await render();
    await act(async () => container.querySelector('button')!.click());
    await until(() => status() === 'Could not prepare “Gulls” as FLAC: The file could not be read.');
    expect(downloads).toEqual([]);
    const tryAgain = [...container.querySelectorAll('button')].find((button) => button.textContent === 'Try again')!;
    await act(async () => tryAgain.click());
    await until(() => status() === 'FLAC is ready. Your download has started.');
    expect(calls).toEqual([`POST ${path}`, `POST ${path}`]);
    expect(downloads).toEqual([downloadUrl]);
  });

  it('picks a preparation up on a reload, and downloads it there only in the tab that asked', async () => {
    posts = [flac('preparing', 0)];
    const first = await render();
    await act(async () => first.container.querySelector('button')!.click());
    await until(() => first.status() === 'Preparing FLAC · 0 of 3 tracks');
    await act(async () => roots.splice(0).forEach((root) => root.unmount()));
    queryClient.clear();

    // The same tab, reloaded: it reads how far the preparation has come, and downloads when ready.
    gets = [flac('preparing', 2), flac('ready', 3)];
    const reloaded = await render();
    await until(() => reloaded.status() === 'Preparing FLAC · 2 of 3 tracks');
    await until(() => reloaded.status() === 'FLAC is ready. Your download has started.');
    expect(downloads).toEqual([downloadUrl]);
    await act(async () => roots.splice(0).forEach((root) => root.unmount()));
    queryClient.clear();

    // Another tab (only the device remembers the choice): shown the preparation, never downloading it.
    localStorage.setItem('soundcause-download:album:3', JSON.stringify({ format: 'flac', at: Date.now() }));
    gets = [flac('ready', 3)];
    const other = await render();
    await until(() => other.status() === 'FLAC is ready.');
    expect(downloads).toEqual([downloadUrl]);
    expect(calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
  });

  it('says nothing of a remembered preparation the server no longer has', async () => {
    localStorage.setItem('soundcause-download:album:3', JSON.stringify({ format: 'flac', at: Date.now() }));
    const { status } = await render();
    await until(() => calls.length === 1);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(status()).toBe('');
    await until(() => localStorage.length === 0);
  });
});
