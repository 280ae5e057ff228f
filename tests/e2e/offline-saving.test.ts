import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../client/lib/format-bytes';
import { seriousViolations } from '../fixtures/axe';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage, gate, savedAlbumIds, savedBytes, storeRows } from '../fixtures/offline';
import { type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Saving for offline in Chromium (issue 12): the first save asks the browser to keep the music
// (once) and the storage meter says it was refused (issue 27); tracks asked for while a save runs are downloaded by it; a save the server refused is
// tried again; Cancel removes what was saved, in every tab; removing one album asks first and
// leaves the others; a full disk says so.

let server: TestServer;
let owner: TestClient;
const email = 'offline-saver@example.org';
type Album = { id: number; slug: string; trackIds: number[] };
let night: Album;
let morning: Album;
let evening: Album;

useAppAndBrowser((started) => {
  server = started;
});

async function album(name: string, seconds: number[]): Promise<Album> {
  const created = await createFundraiser(owner, {
    details: { name },
    uploads: await uploadListenableMusic(owner, seconds),
    publish: true,
  });
  return { id: created.id, slug: created.urlSlug!, trackIds: created.tracksList.map((track) => track.id) };
}

beforeAll(async () => {
  owner = await verifiedUser(server, email);
  night = await album('Night Songs', [6, 5, 4]);
  morning = await album('Morning Songs', [3]);
  evening = await album('Evening Songs', [3]);
  await server.jobs.drain();
});

/** The album control's words once every track is saved (not 'N of M tracks saved for offline'). */
const SAVED = /^\s*Saved for offline\b/;

const albumPage = (page: Page, which: Album) => page.goto(`${server.baseUrl}/music/album/${which.slug}`);

/** Holds the first GET of a track's stream until the gate opens; resolves `arrived` when it comes. */
async function holdFirstDownload(context: BrowserContext, trackId: number) {
  const held = gate();
  const arrived = gate();
  let first = true;
  await context.route(new RegExp(`/api/tracks/${trackId}/stream`), async (route) => {
    if (route.request().method() !== 'GET' || !first) return route.continue();
    first = false;
    arrived.open();
    await held.opened;
    // The page may have given up on it meanwhile (a cancelled save).
    await route.continue().catch(() => undefined);
  });
  return { arrived: arrived.opened, release: held.open };
}

/** How many times the page asked navigator.storage.persist() (counted by an init script). */
const persistCalls = (page: Page) => page.evaluate(() => Number(localStorage.getItem('test-persist-calls') ?? 0));

describe('saving for offline', () => {
  it('asks to persist once; tracks saved while a save runs are downloaded too; one track comes off alone', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, email);
    try {
      // The browser refuses to persist: the app asks at the first save, and never again.
      await context.addInitScript(() => {
        const storage = navigator.storage as StorageManager & Record<string, unknown>;
        storage.persisted = () => Promise.resolve(false);
        storage.persist = () => {
          localStorage.setItem(
            'test-persist-calls',
            String(Number(localStorage.getItem('test-persist-calls') ?? 0) + 1),
          );
          return Promise.resolve(false);
        };
      });
      const first = await holdFirstDownload(context, night.trackIds[0]!);
      await albumPage(page, night);
      await page.getByRole('button', { name: 'Save Track 1 for offline' }).click();
      await first.arrived;
      // While track 1 is on its way, the other two are asked for.
      await page.getByRole('button', { name: 'Save Track 2 for offline' }).click();
      await page.getByRole('button', { name: 'Save Track 3 for offline' }).click();
      await page.getByRole('img', { name: 'Track 3: saving, 0%' }).waitFor();
      first.release();
      await page.getByText(SAVED).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('button', { name: /saved for offline. Remove/ }).count()).toBe(3);
      const tracks = await storeRows<{ trackId: number; size: number; received: number }>(page, 'tracks');
      expect(tracks).toHaveLength(3);
      for (const track of tracks) expect(track.received).toBe(track.size);
      expect(await persistCalls(page)).toBe(1);
      // The storage meter says the browser did not agree to keep it (issue 27).
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByText('This browser may clear saved music when space runs low.').waitFor();
      await albumPage(page, night);

      // One track off the device: the album stays, with the other two.
      const before = await savedBytes(page);
      await page.getByRole('button', { name: 'Track 2: saved for offline. Remove from this device' }).click();
      await page.getByText('2 of 3 tracks saved for offline').waitFor();
      expect(await savedBytes(page)).toBe(before - tracks.find((track) => track.trackId === night.trackIds[1])!.size);
      // Saving it again is another save, not another question.
      await page.getByRole('button', { name: 'Save all tracks' }).click();
      await page.getByText(SAVED).waitFor({ timeout: 30_000 });
      expect(await savedBytes(page)).toBe(before);
      expect(await persistCalls(page)).toBe(1);
    } finally {
      await close();
    }
  });

  it('tries again after a refusal, cancels in every tab, and removes one album while another stays', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, email);
    try {
      // The server fails one download once.
      let failed = false;
      await context.route(new RegExp(`/api/tracks/${night.trackIds[1]}/stream`), async (route) => {
        if (route.request().method() !== 'GET' || failed) return route.continue();
        failed = true;
        await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' });
      });
      allowConsoleErrors(page, new RegExp(`status of 500 .*/api/tracks/${night.trackIds[1]}/stream`));
      await albumPage(page, night);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText('Saving stopped. Please try again.').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByText(SAVED).waitFor({ timeout: 30_000 });

      await albumPage(page, morning);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText(SAVED).waitFor({ timeout: 30_000 });
      expect(await savedAlbumIds(page)).toEqual([night.id, morning.id].sort());

      // Cancel while saving: what was saved goes, and the other tab sees it go.
      const held = await holdFirstDownload(context, evening.trackIds[0]!);
      const otherTab = await context.newPage();
      await albumPage(otherTab, evening);
      await albumPage(page, evening);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await held.arrived;
      await otherTab.getByText(/Saving for offline… \d+%/).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Save for offline' }).waitFor();
      await otherTab.getByRole('button', { name: 'Save for offline' }).waitFor();
      held.release();
      expect(await savedAlbumIds(page)).toEqual([night.id, morning.id].sort());
      await otherTab.close();

      // Removing one album asks first, saying what goes and the room it frees; Cancel keeps it.
      const tracks = await storeRows<{ projectId: number; size: number }>(page, 'tracks');
      const bytesOf = (id: number) =>
        tracks.filter((track) => track.projectId === id).reduce((sum, track) => sum + track.size, 0);
      const morningBytes = bytesOf(morning.id);
      await albumPage(page, night);
      const remove = page.getByRole('button', { name: 'Remove from this device', exact: true });
      await remove.click();
      const dialog = page.getByRole('dialog', { name: 'Remove “Night Songs” from this device?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        `3 tracks saved on this device will be removed, freeing ${formatBytes(bytesOf(night.id))}.`,
      );
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await savedAlbumIds(page)).toEqual([night.id, morning.id].sort());
      await page.getByText(SAVED).waitFor();
      // Escape keeps it too; the dialog's own button removes it, and frees its bytes only.
      await remove.click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await savedAlbumIds(page)).toEqual([night.id, morning.id].sort());
      await remove.click();
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByRole('button', { name: 'Save for offline' }).waitFor();
      // The button that opened the dialog is gone: the keyboard is on the one that saves it again.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
        .toBe('Save for offline');
      expect(await savedAlbumIds(page)).toEqual([morning.id]);
      expect(await savedBytes(page)).toBe(morningBytes);
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByRole('link', { name: 'Morning Songs' }).waitFor();
      expect(await page.getByRole('link', { name: 'Night Songs' }).count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('says when the device has no room left for the music', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, email);
    try {
      // A full disk, as IndexedDB reports it when a write does not fit. (CDP's
      // Storage.overrideQuotaForOrigin has no effect on this Chromium's quota, so the write of
      // the music's bytes is refused here, before Dexie, which wraps the error on its way up.)
      await context.addInitScript(() => {
        const put = IDBObjectStore.prototype.put;
        IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
          if (this.name === 'chunks') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return put.apply(this, args);
        };
      });
      await albumPage(page, morning);
      await page.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText('There is not enough storage on this device.').waitFor({ timeout: 30_000 });
      expect(await savedBytes(page)).toBe(0);
      await page.getByRole('button', { name: 'Try again' }).waitFor();
    } finally {
      await close();
    }
  });
});
