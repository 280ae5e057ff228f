import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mobileViewport } from '../fixtures/browser';
import { pageSettled, startAppServer } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage as openControlledPage, goOffline, savedBytes } from '../fixtures/offline';
import { startS3Store, type S3Store } from '../fixtures/s3-store';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

// Media in a bucket, in Chromium (issue 25): the site's media answers are redirects to the S3
// server (another origin), and the page follows them as it follows its own files: the cover shows
// (through MEDIA_PUBLIC_URL), a bought track plays from a presigned link, "Save for offline"
// fetches every track through the redirects (the bucket's CORS lets it read them), and the saved
// album plays with no network, from the service worker, at the same addresses as online.

let store: S3Store;
let server: TestServer;
const email = 'bucket-fan@example.org';
const ALBUM = 'Songs From The Bucket';
let slug = '';

beforeAll(async () => {
  store = await startS3Store(['media']);
  server = await startAppServer({ ...store.env(), MEDIA_PUBLIC_URL: `${store.endpoint}/media` });
  const owner = await verifiedUser(server, email);
  const album = await createFundraiser(owner, {
    details: { name: ALBUM },
    uploads: await uploadListenableMusic(owner, [8, 6]),
    publish: true,
  });
  slug = album.urlSlug!;
  await server.jobs.drain();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await store?.close();
});

type HowlLike = { playing: () => boolean; seek: () => number };

/** The position of the sound playing in this tab, 0 when none plays. */
const playingAt = (page: Page) =>
  page.evaluate(() => {
    const howls = (globalThis as unknown as { Howler?: { _howls: HowlLike[] } }).Howler?._howls ?? [];
    return Number(howls.find((howl) => howl.playing())?.seek()) || 0;
  });

/** Every image on the page has loaded. */
const imagesLoaded = (page: Page) =>
  page.evaluate(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));

describe('media in a bucket', () => {
  for (const viewport of [undefined, mobileViewport]) {
    it(`plays, saves for offline and plays offline through the redirects${viewport ? ' (390 px)' : ''}`, async () => {
      const { page, context, close } = await openControlledPage(server.baseUrl, email, viewport);
      // What the browser asked for, the pages and the service worker alike, redirects followed.
      const asked: string[] = [];
      context.on('request', (request) => asked.push(request.url()));
      try {
        await page.goto(`${server.baseUrl}/music/album/${slug}`);
        await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
        await pageSettled(page);
        await expect.poll(() => imagesLoaded(page)).toBe(true);
        expect(asked.some((url) => url.startsWith(`${store.endpoint}/media/images/`))).toBe(true);

        // The first range comes from the S3 server through a redirect: on a loaded machine it can
        // take a while, so the wait is long; a play that never starts still fails.
        await page.getByRole('button', { name: 'Play Track 1' }).click();
        await expect.poll(() => playingAt(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
        expect(asked.some((url) => url.startsWith(`${store.endpoint}/media/streams/`))).toBe(true);
        await page.getByRole('button', { name: 'Pause' }).first().click();

        await page.getByRole('button', { name: 'Save for offline' }).click();
        await page.getByText('Saved for offline').waitFor({ timeout: 30_000 });
        expect(await savedBytes(page)).toBeGreaterThan(50_000);
        await page.screenshot({ path: `/tmp/bucket-saved-${viewport ? 390 : 1280}.png` });

        await goOffline(context, page);
        await page.goto(`${server.baseUrl}/music/album/${slug}`);
        await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
        await page.getByRole('button', { name: 'Play Track 2' }).click();
        await expect.poll(() => playingAt(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      } finally {
        await close();
      }
    }, 90_000);
  }
});
