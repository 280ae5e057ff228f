import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../client/lib/format-bytes';
import { describeEstimate, estimatedBytes, type OfflineQuality } from '../../client/offline/offline-quality';
import { type LibraryAlbumDetail, libraryAlbumDetailSchema } from '../../shared/answers/library';
import { seriousViolations } from '../fixtures/axe';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { launchPersistent, mobileViewport } from '../fixtures/browser';
import { donate } from '../fixtures/donations';
import { logIn, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage, gate, goOffline, storeRows } from '../fixtures/offline';
import { musicPlayer } from '../fixtures/player';
import { type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Saving for offline in a quality (issue 27; DESIGN.md "offline quality"), on a phone: a fan who
// bought an album sees each quality's size before saving, saves it as Data saver (downloaded from
// the stream's quality=low URL), sees its quality and size in Your music and whether the browser
// keeps it, plays it with no network at the player's own URL and seeks in it; then switches it to
// Standard, the Data saver copy answering until the Standard one is whole. Music saved before
// there was a choice is Standard after the upgrade, and still plays.

let server: TestServer;
const ownerEmail = 'quality-artist@example.org';
const fanEmail = 'quality-fan@example.org';
type Album = { id: number; slug: string; name: string; detail: LibraryAlbumDetail };
let night: Album;
let older: Album;
let fan: TestClient;

useAppAndBrowser((started) => {
  server = started;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, ownerEmail);
  fan = await verifiedUser(server, fanEmail);
  const album = async (name: string, seconds: number[]): Promise<Album> => {
    const created = await createFundraiser(owner, {
      details: { name },
      uploads: await uploadListenableMusic(owner, seconds),
      publish: true,
    });
    await server.jobs.drain();
    await donate(server, { fundraiserId: created.id, email: fanEmail });
    const detail = libraryAlbumDetailSchema.parse((await fan.get(`/api/music-library/album/${created.id}`)).json);
    return { id: created.id, slug: created.urlSlug!, name, detail };
  };
  night = await album('Night Bus Songs', [12, 10, 8]);
  older = await album('Older Songs', [4]);
  // The server makes Data saver files in its background jobs, at the first request for one.
  await server.jobs.start();
});

const SAVED = /^\s*Saved for offline\b/;
const shot = async (page: Page, name: string) => {
  if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, name), fullPage: true });
};

/** The browser agrees to keep the site's storage when asked (the decision is the browser's own). */
const grantPersistence = (context: BrowserContext) =>
  context.addInitScript(() => {
    const storage = navigator.storage as StorageManager & Record<string, unknown>;
    storage.persisted = () => Promise.resolve(localStorage.getItem('test-persisted') === 'yes');
    storage.persist = () => {
      localStorage.setItem('test-persisted', 'yes');
      return Promise.resolve(true);
    };
  });

type StreamRequest = { trackId: number; method: string; quality: string | null; range: string | undefined };

/**
 * Every request for a track's stream that reaches the network (the service worker's included), and
 * a way to hold the first GET of one quality until the test lets it go.
 */
async function watchStreams(context: BrowserContext) {
  const seen: StreamRequest[] = [];
  let hold: { quality: string; arrived: () => void; released: Promise<void> } | undefined;
  await context.route(/\/api\/tracks\/\d+\/stream/, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const quality = url.searchParams.get('quality');
    seen.push({
      trackId: Number(/\/tracks\/(\d+)\//.exec(url.pathname)![1]),
      method: request.method(),
      quality,
      range: request.headers()['range'],
    });
    if (hold && request.method() === 'GET' && quality === hold.quality) {
      const { arrived, released } = hold;
      hold = undefined;
      arrived();
      await released;
    }
    await route.continue().catch(() => undefined);
  });
  return {
    seen,
    holdFirst(quality: OfflineQuality) {
      const arrived = gate();
      const released = gate();
      hold = { quality, arrived: arrived.open, released: released.opened };
      return { arrived: arrived.opened, release: released.open };
    },
  };
}

type TrackRow = {
  trackId: number;
  src: string;
  quality: OfflineQuality;
  size: number;
  received: number;
  contentType: string;
  next?: unknown;
};
type AlbumRow = { projectId: number; quality: OfflineQuality; receivedBytes: number; switching?: unknown };

const tracksOf = async (page: Page, album: Album) =>
  (await storeRows<TrackRow>(page, 'tracks')).filter((track) =>
    album.detail.tracks.some((t) => t.id === track.trackId),
  );
const albumRow = async (page: Page, album: Album) =>
  (await storeRows<AlbumRow>(page, 'albums')).find((row) => row.projectId === album.id);

/** How many rows the store of new copies holds (the fixture's storeRows does not know it). */
const nextChunkCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('soundcause-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('nextChunks').objectStore('nextChunks').count();
          count.onsuccess = () => {
            resolve(count.result);
            open.result.close();
          };
        };
      }),
  );

/** What the server answers for a quality of a track, as the fan. */
async function serverFile(src: string, quality: OfflineQuality) {
  const response = await fetch(`${server.baseUrl}${src}&quality=${quality}`, {
    headers: { cookie: fan.cookieHeader() },
  });
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { contentType: response.headers.get('content-type'), size: bytes.length, bytes };
}

/** A range of the player's URL as this page gets it (from the service worker, when saved). */
const pageRange = (page: Page, src: string, start: number, end: number) =>
  page.evaluate(
    async ({ src, range }) => {
      const response = await fetch(src, { headers: { range } });
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        contentRange: response.headers.get('content-range'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      };
    },
    { src, range: `bytes=${start}-${end}` },
  );

type HowlLike = { playing: () => boolean; seek: (to?: number) => number; _sounds: { _node: HTMLAudioElement }[] };

/** The playing sound's media element's position. */
const elementTime = (page: Page) =>
  page.evaluate(() => {
    const howls = (globalThis as unknown as { Howler?: { _howls: HowlLike[] } }).Howler?._howls ?? [];
    return howls.find((howl) => howl.playing())?._sounds[0]?._node.currentTime ?? 0;
  });

const sizes = (album: Album) => ({
  standard: describeEstimate('standard', estimatedBytes(album.detail.tracks, 'standard')),
  low: describeEstimate('low', estimatedBytes(album.detail.tracks, 'low')),
});

describe('saving for offline in a quality', () => {
  it('saves Data saver at the size it showed, plays it offline at the player’s URL, then switches it to Standard (390 px)', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, fanEmail, mobileViewport);
    try {
      await grantPersistence(context);
      const streams = await watchStreams(context);
      const offered = sizes(night);
      await page.goto(`${server.baseUrl}/music/album/${night.slug}`);

      // Each quality with its size, before anything is saved; Standard until one is chosen.
      const trigger = page.getByRole('button', { name: `Quality: ${offered.standard}`, exact: true });
      await trigger.click();
      const standard = page.getByRole('menuitemradio', { name: offered.standard });
      const dataSaver = page.getByRole('menuitemradio', { name: offered.low });
      expect(await standard.getAttribute('aria-checked')).toBe('true');
      expect(await dataSaver.getAttribute('aria-checked')).toBe('false');
      expect(await dataSaver.textContent()).toBe(`${offered.low}Smaller files at lower quality, good for phones.`);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'quality-menu-390.png');
      await dataSaver.click();
      await page.getByRole('button', { name: `Quality: ${offered.low}`, exact: true }).waitFor();
      expect(streams.seen).toEqual([]);

      await page.getByRole('button', { name: 'Save for offline' }).click();
      const status = page.getByText(SAVED);
      await status.waitFor({ timeout: 60_000 });
      expect(await status.textContent()).toMatch(/^\s*Saved for offline · Data saver · \d+(\.\d)? [KM]B$/);
      await shot(page, 'saved-data-saver-390.png');

      // Every byte came from the Data saver URL; the store keeps the player's URL as the key, with
      // what the server said the bytes are.
      expect(streams.seen.length).toBeGreaterThan(0);
      expect(streams.seen.filter((request) => request.quality !== 'low')).toEqual([]);
      const gets = new Set(streams.seen.filter((request) => request.method === 'GET').map((r) => r.trackId));
      expect([...gets].sort()).toEqual(night.detail.tracks.map((track) => track.id).sort());
      const saved = await tracksOf(page, night);
      expect(saved).toHaveLength(3);
      for (const track of saved) {
        const detail = night.detail.tracks.find((t) => t.id === track.trackId)!;
        expect(track.src).toBe(detail.src);
        expect(track.quality).toBe('low');
        const file = await serverFile(track.src, 'low');
        expect(track.contentType).toBe('audio/mp4');
        expect(file.contentType).toBe('audio/mp4');
        expect(file.size).toBeLessThan((await serverFile(track.src, 'standard')).size);
        expect(track.size).toBe(file.size);
        expect(track.received).toBe(file.size);
      }
      const row = (await albumRow(page, night))!;
      expect(row.quality).toBe('low');

      // Your music: its quality and size, and whether the browser keeps it.
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      const tile = page.getByRole('article').filter({ hasText: night.name });
      await tile.getByText(`Data saver · ${formatBytes(row.receivedBytes)}`).waitFor();
      await page.getByText('Kept safe: this browser will not clear saved music when space runs low.').waitFor();
      await tile.getByRole('button', { name: `Switch to ${offered.standard} (${night.name})` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'saved-on-device-390.png');

      // No network: the album plays from the device at the player's URL, and seeks in it.
      await goOffline(context, page);
      await page.getByRole('link', { name: night.name }).click();
      await page.getByRole('heading', { level: 1, name: night.name }).waitFor();
      const first = saved.find((track) => track.trackId === night.detail.tracks[0]!.id)!;
      const slice = await pageRange(page, first.src, 1000, 1999);
      expect(slice.status).toBe(206);
      expect(slice.contentType).toBe(first.contentType);
      expect(slice.contentRange).toBe(`bytes 1000-1999/${first.size}`);
      const lowFile = await serverFile(first.src, 'low');
      expect(slice.bytes).toEqual([...lowFile.bytes.subarray(1000, 2000)]);
      await page.getByRole('button', { name: 'Play Track 1' }).click();
      await expect.poll(() => elementTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
      await page.evaluate(() => {
        const howls = (globalThis as unknown as { Howler: { _howls: HowlLike[] } }).Howler._howls;
        howls.find((howl) => howl.playing())?.seek(7);
      });
      await expect.poll(() => elementTime(page), { timeout: 10_000 }).toBeGreaterThan(7.3);
      await shot(page, 'offline-playing-390.png');
      await musicPlayer(page).getByRole('button', { name: 'Pause' }).click();

      // Back online, it switches to Standard: while the new copy downloads, the Data saver one
      // is what the player's URL answers.
      await context.setOffline(false);
      const held = streams.holdFirst('standard');
      await page.getByRole('button', { name: `Switch to ${offered.standard}` }).click();
      await held.arrived;
      await page.getByText(/^Switching to Standard… \d+%$/).waitFor();
      await page.getByText('The Data saver copy stays and plays until the Standard one is complete.').waitFor();
      expect((await albumRow(page, night))!.quality).toBe('low');
      const during = await pageRange(page, first.src, 1000, 1999);
      expect(during.contentType).toBe(first.contentType);
      expect(during.bytes).toEqual(slice.bytes);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'switching-390.png');
      held.release();

      await page.getByText(/^\s*Saved for offline · Standard · /).waitFor({ timeout: 60_000 });
      expect(streams.seen.filter((r) => r.method === 'GET' && r.quality === 'standard')).toHaveLength(3);
      const switched = await tracksOf(page, night);
      for (const track of switched) {
        const file = await serverFile(track.src, 'standard');
        expect(track).toMatchObject({ quality: 'standard', contentType: 'audio/mpeg', size: file.size });
        expect(track.received).toBe(file.size);
        expect(track.next).toBeUndefined();
        // The standard rendition is a constant-rate MP3: the size offered was near the truth.
        const offeredBytes = estimatedBytes([night.detail.tracks.find((t) => t.id === track.trackId)!], 'standard')!;
        expect(Math.abs(file.size - offeredBytes) / offeredBytes).toBeLessThan(0.05);
      }
      expect(await nextChunkCount(page)).toBe(0);
      const after = await pageRange(page, first.src, 1000, 1999);
      expect(after.contentType).toBe('audio/mpeg');
      expect(after.bytes).toEqual([...(await serverFile(first.src, 'standard')).bytes.subarray(1000, 2000)]);
      const standardRow = (await albumRow(page, night))!;
      expect(standardRow).toMatchObject({ quality: 'standard' });
      expect(standardRow.switching).toBeUndefined();

      // A change of quality can be stopped: the album stays as it was, the new bytes go.
      const second = streams.holdFirst('low');
      await page.getByRole('button', { name: `Switch to ${offered.low}` }).click();
      await second.arrived;
      await page.getByRole('button', { name: 'Keep Standard' }).click();
      await page.getByRole('button', { name: `Switch to ${offered.low}` }).waitFor();
      second.release();
      await expect.poll(async () => (await albumRow(page, night))?.switching).toBeUndefined();
      expect((await tracksOf(page, night)).map((track) => track.quality)).toEqual(['standard', 'standard', 'standard']);
      await expect.poll(() => nextChunkCount(page)).toBe(0);

      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await tile.getByText(`Standard · ${formatBytes(standardRow.receivedBytes)}`).waitFor();
      await shot(page, 'saved-standard-390.png');
    } finally {
      await close();
    }
  });

  it('keeps music saved before there was a choice, as Standard, playing offline', async () => {
    const { context, close } = await launchPersistent(mobileViewport);
    try {
      const page = await context.newPage();
      // The store as the app before issue 27 left it (Dexie version 2 is IndexedDB version 20),
      // made before this version of the app opens it.
      allowConsoleErrors(page, /favicon\.ico/);
      await page.goto(`${server.baseUrl}/robots.txt`);
      const track = older.detail.tracks[0]!;
      const file = await serverFile(track.src!, 'standard');
      await page.evaluate(
        async ({ detail, owner, trackId, src, base64 }) => {
          const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open('soundcause-offline', 20);
            open.onupgradeneeded = () => {
              const made = open.result;
              const albums = made.createObjectStore('albums', { keyPath: 'projectId' });
              albums.createIndex('projectSlug', 'projectSlug');
              albums.createIndex('owner', 'owner');
              made.createObjectStore('tracks', { keyPath: 'trackId' }).createIndex('projectId', 'projectId');
              made.createObjectStore('chunks', { keyPath: ['trackId', 'start'] }).createIndex('trackId', 'trackId');
              made.createObjectStore('responses', { keyPath: 'url' }).createIndex('projectId', 'projectId');
              made.createObjectStore('device', { keyPath: 'key' });
            };
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          const write = db.transaction(['albums', 'tracks', 'chunks', 'device'], 'readwrite');
          const size = bytes.length;
          write.objectStore('albums').put({
            projectId: detail.projectId,
            projectSlug: detail.projectSlug,
            owner,
            detail,
            state: 'saved',
            totalBytes: size,
            receivedBytes: size,
            savedAt: Date.now(),
          });
          write.objectStore('tracks').put({
            trackId,
            projectId: detail.projectId,
            src,
            size,
            received: size,
            contentType: 'audio/mpeg',
          });
          const half = Math.floor(size / 2);
          write.objectStore('chunks').put({ trackId, start: 0, blob: new Blob([bytes.slice(0, half)]) });
          write.objectStore('chunks').put({ trackId, start: half, blob: new Blob([bytes.slice(half)]) });
          write.objectStore('device').put({ key: 'owner', owner });
          await new Promise((resolve, reject) => {
            write.oncomplete = resolve;
            write.onerror = () => reject(write.error);
          });
          db.close();
        },
        {
          detail: older.detail,
          owner: fanEmail,
          trackId: track.id,
          src: track.src!,
          base64: Buffer.from(file.bytes).toString('base64'),
        },
      );

      await logIn(page, server.baseUrl, fanEmail);
      await page.goto(`${server.baseUrl}/music/album/${older.slug}`);
      const status = page.getByText(SAVED);
      await status.waitFor();
      expect(await status.textContent()).toBe(` Saved for offline · Standard · ${formatBytes(file.size)}`);
      await page.getByRole('button', { name: `Switch to ${sizes(older).low}` }).waitFor();
      expect((await albumRow(page, older))?.quality).toBe('standard');
      expect((await tracksOf(page, older)).map((row) => row.quality)).toEqual(['standard']);
      expect(await nextChunkCount(page)).toBe(0);

      // With no network, the service worker answers the player's URL from the upgraded store.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
        }
      });
      await goOffline(context, page);
      const slice = await pageRange(page, track.src!, 100, 199);
      expect(slice.status).toBe(206);
      expect(slice.bytes).toEqual([...file.bytes.subarray(100, 200)]);
      await page.getByRole('button', { name: 'Play Track 1' }).click();
      await expect.poll(() => elementTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
      await musicPlayer(page).getByRole('button', { name: 'Pause' }).click();
    } finally {
      await close();
    }
  });
});
