import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../client/lib/format-bytes';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage as openControlledPage, goOffline, savedBytes, storeRows } from '../fixtures/offline';
import { type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Offline listening in Chromium (issue 12): an album saved on the device plays with no network
// from Your music → Saved on this device, through the service worker at the same stream URLs
// (a range of the stored bytes is a 206 slice), the next track follows and the Media Session
// names it; the storage meter shows the bytes and removing frees them; a save cut off by the
// network going away resumes with a Range request when it comes back, nothing downloaded twice.

let server: TestServer;
const email = 'offline-fan@example.org';
const ALBUM = 'Night Train Songs';
let slug = '';
let trackIds: number[] = [];
let owner: TestClient;

useAppAndBrowser((started) => {
  server = started;
});

beforeAll(async () => {
  owner = await verifiedUser(server, email);
  const album = await createFundraiser(owner, {
    details: { name: ALBUM },
    uploads: await uploadListenableMusic(owner, [12, 10, 8]),
    publish: true,
  });
  slug = album.urlSlug!;
  trackIds = album.tracksList.map((track) => track.id);
  await server.jobs.drain();
});

const controlledPage = (viewport?: { width: number; height: number }) =>
  openControlledPage(server.baseUrl, email, viewport);

type HowlLike = { _src: string | string[]; playing: () => boolean; seek: (to?: number) => number };

/** The position of the sound playing in this tab, 0 when none plays. */
const playingAt = (page: Page) =>
  page.evaluate(() => {
    const howls = (globalThis as unknown as { Howler?: { _howls: HowlLike[] } }).Howler?._howls ?? [];
    return Number(howls.find((howl) => howl.playing())?.seek()) || 0;
  });

const nowPlaying = (page: Page) =>
  page.getByRole('region', { name: 'Music player' }).locator('.player-title').textContent();

/** Bytes start..end of a stream as the server sends them. */
async function serverBytes(src: string, start: number, end: number): Promise<number[]> {
  const response = await fetch(`${server.baseUrl}${src}`, {
    headers: { cookie: owner.cookieHeader(), range: `bytes=${start}-${end}` },
  });
  expect(response.status).toBe(206);
  return [...new Uint8Array(await response.arrayBuffer())];
}

describe('offline listening', () => {
  it('saves an album, then plays it with no network: seeking, the next track, the lock screen; removing frees it', async () => {
    const { page, context, close } = await controlledPage();
    try {
      // A second tab on the same album follows the save as it happens (Dexie's live queries).
      const otherTab = await context.newPage();
      await otherTab.goto(`${server.baseUrl}/music/album/${slug}`);
      await otherTab.getByRole('button', { name: 'Save for offline' }).waitFor();
      await page.goto(`${server.baseUrl}/music/album/${slug}`);
      await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText('Saved for offline').waitFor({ timeout: 30_000 });
      await otherTab.getByText('Saved for offline').waitFor();
      await otherTab.close();
      expect(await page.getByRole('button', { name: /saved for offline. Remove/ }).count()).toBe(3);
      const bytes = await savedBytes(page);
      expect(bytes).toBeGreaterThan(50_000);
      expect(await seriousViolations(page)).toEqual([]);

      await goOffline(context, page);
      await page.getByText('You’re offline. Music saved on this device still plays').waitFor();
      // (Chromium's emulation leaves navigator.onLine true in a document loaded after this, though
      // its requests fail: the page cannot tell, but the service worker answers what is saved.)
      await page.goto(`${server.baseUrl}/music`);
      await page.getByRole('link', { name: 'Saved on this device' }).click();
      // The meter gives the saved bytes, and what the browser says is left.
      const meter = page.locator('.storage-meter-figures');
      await expect.poll(() => meter.locator('strong').textContent()).toBe(formatBytes(bytes));
      expect(await meter.textContent()).toMatch(/ · \d+(\.\d)? [KMGT]B left on this device$/);
      await page.getByRole('link', { name: ALBUM }).click();
      await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();

      // A range from the middle of a saved track comes from the worker (there is no network) as a
      // 206 slice of the stored bytes, the same bytes the server sends.
      const first = (await storeRows<{ trackId: number; src: string; size: number }>(page, 'tracks')).find(
        (track) => track.trackId === trackIds[0],
      )!;
      const slice = await page.evaluate(async (src) => {
        const response = await fetch(src, { headers: { range: 'bytes=100000-100999' } });
        return {
          status: response.status,
          contentRange: response.headers.get('content-range'),
          bytes: [...new Uint8Array(await response.arrayBuffer())],
        };
      }, first.src);
      expect(slice.status).toBe(206);
      expect(slice.contentRange).toBe(`bytes 100000-100999/${first.size}`);
      expect(slice.bytes).toEqual(await serverBytes(first.src, 100_000, 100_999));

      await page.getByRole('button', { name: 'Play Track 1' }).click();
      await expect.poll(() => nowPlaying(page), { timeout: 10_000 }).toBe('Track 1');
      await expect.poll(() => playingAt(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
      // Seek to the middle: the element asks the worker for a range of the stored bytes.
      await page.evaluate(() => {
        const howls = (globalThis as unknown as { Howler: { _howls: HowlLike[] } }).Howler._howls;
        howls.find((howl) => howl.playing())?.seek(6);
      });
      await expect.poll(() => playingAt(page), { timeout: 10_000 }).toBeGreaterThan(6.2);

      await page.getByRole('region', { name: 'Music player' }).getByRole('button', { name: 'Next track' }).click();
      await expect.poll(() => nowPlaying(page), { timeout: 10_000 }).toBe('Track 2');
      await expect.poll(() => playingAt(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
      expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Track 2');
      if (process.env.SHOT_DIR) {
        await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'offline-album-1280.png'), fullPage: true });
      }

      await context.setOffline(false);
      await page.getByRole('region', { name: 'Music player' }).getByRole('button', { name: 'Pause' }).click();
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByRole('link', { name: ALBUM }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      if (process.env.SHOT_DIR) {
        await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'saved-on-device-1280.png'), fullPage: true });
      }
      await page.getByRole('button', { name: 'Remove all saved music' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove all saved music?' });
      expect(await dialog.textContent()).toContain(
        `1 album saved on this device will be removed, freeing ${formatBytes(bytes)}.`,
      );
      await dialog.getByRole('button', { name: 'Remove all' }).click();
      await page.getByText('No music saved on this device yet.', { exact: false }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Go to your albums');
      await page.getByText('Saved music uses 0 B').waitFor();
      expect(await savedBytes(page)).toBe(0);
    } finally {
      await close();
    }
  });

  it('resumes a save cut off by the network where it stopped, and asks on logout whether to keep it (390 px)', async () => {
    const { page, context, close } = await controlledPage(mobileViewport);
    try {
      const second = trackIds[1]!;
      const downloads: { range: string | undefined; bytes: number }[] = [];
      let cut = false;
      // Requests the service worker sends on are routed here (Chromium): the second track's first
      // download gets half its bytes, and the network goes away with the rest.
      await context.route(new RegExp(`/api/tracks/${second}/stream`), async (route) => {
        const request = route.request();
        if (request.method() !== 'GET') return route.continue();
        const response = await route.fetch();
        const body = await response.body();
        const headers = { ...response.headers() };
        delete headers['content-length'];
        if (!cut) {
          cut = true;
          const half = body.subarray(0, Math.floor(body.length / 2));
          downloads.push({ range: request.headers()['range'], bytes: half.length });
          await route.fulfill({ status: response.status(), headers, body: half });
          await goOffline(context, page);
          return;
        }
        downloads.push({ range: request.headers()['range'], bytes: body.length });
        await route.fulfill({ status: response.status(), headers, body });
      });

      await page.goto(`${server.baseUrl}/music/album/${slug}`);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText(/Paused at \d+%/).waitFor({ timeout: 30_000 });
      await page.getByRole('banner').waitFor();
      await page.getByText('You’re offline.', { exact: false }).first().waitFor();
      if (process.env.SHOT_DIR) {
        await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'offline-paused-390.png'), fullPage: true });
      }

      await context.setOffline(false);
      await page.getByText('Saved for offline').waitFor({ timeout: 30_000 });
      expect(downloads).toHaveLength(2);
      expect(downloads[0]!.range).toBeUndefined();
      // The second request asked only for the rest.
      expect(downloads[1]!.range).toBe(`bytes=${downloads[0]!.bytes}-`);
      const size = await page.evaluate(
        (id) =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('soundcause-offline');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const get = open.result.transaction('tracks').objectStore('tracks').get(id);
              get.onsuccess = () => {
                resolve((get.result as { received: number }).received);
                open.result.close();
              };
            };
          }),
        second,
      );
      expect(size).toBe(downloads[0]!.bytes + downloads[1]!.bytes);
      expect(await seriousViolations(page)).toEqual([]);

      // Logging out of a device with saved music asks; keeping it keeps the bytes.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('dialog', { name: 'Keep your saved music on this device?' }).waitFor();
      await page.getByRole('button', { name: 'Keep and log out' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      expect(await savedBytes(page)).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('removes a saved album at the next start once it is no longer in your music', async () => {
    const uploads = await uploadListenableMusic(owner, [3]);
    const leaving = await createFundraiser(owner, { details: { name: 'Soon Gone' }, uploads, publish: true });
    await server.jobs.drain();
    const { page, close } = await controlledPage();
    try {
      await page.goto(`${server.baseUrl}/music/album/${leaving.urlSlug}`);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText('Saved for offline').waitFor({ timeout: 30_000 });
      // The owner deletes the fundraiser: its album leaves their music, and so this device. (The
      // check's 404 is the library's answer for an album that is not the caller's.)
      allowConsoleErrors(page, new RegExp(`status of 404 .*/api/music-library/album/${leaving.id}\\)$`));
      expect((await owner.delete(`/api/fundraisers/${leaving.id}`)).status).toBe(200);
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByText('No music saved on this device yet.', { exact: false }).waitFor();
      expect(await savedBytes(page)).toBe(0);
    } finally {
      await close();
    }
  });
});
