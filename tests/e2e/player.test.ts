import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../fixtures/axe';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { logIn, newContext, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { musicPlayer, playingSound, sounds } from '../fixtures/player';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

// The persistent cross-tab player (issue 5; spec part 1 sections 2 and 4): the owner plays their
// album from Your music, the rules of next/previous/end hold, one tab plays at a time, a reload
// keeps the tracklist and logging out clears it. Chromium runs with autoplay allowed.

let server: TestServer;
let browser: Browser;
const email = 'player-owner@example.org';
const ALBUM = 'Tide and Tone';
/** `/api/tracks/{id}/stream` of the album's first track, as a URL fragment. */
let firstTrackId = '';
/** The same for its second track. */
let secondTrackId = '';
/** The album's page in Your music. */
let albumPath = '';

useAppAndBrowser(async (started, launched) => {
  server = started;
  browser = launched;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, email);
  const album = await createFundraiser(owner, {
    details: { name: ALBUM },
    // Long enough to watch time pass and to tell a restart from the previous track.
    uploads: await uploadListenableMusic(owner, [12, 10, 8]),
    publish: true,
  });
  firstTrackId = `/api/tracks/${album.tracksList[0]!.id}/stream`;
  secondTrackId = `/api/tracks/${album.tracksList[1]!.id}/stream`;
  albumPath = `/music/album/${album.urlSlug}`;
  await server.jobs.drain();
});

const player = musicPlayer;

async function nowPlaying(page: Page, name: string) {
  await expect.poll(() => player(page).locator('.player-title').textContent(), { timeout: 10_000 }).toBe(name);
}

async function openAlbum(page: Page) {
  await page.goto(`${server.baseUrl}/music`);
  await page.waitForURL(/\/music\/albums\/past-donations$/);
  await page.getByRole('link', { name: 'Your fundraisers' }).click();
  await page.waitForURL(/\/music\/albums\/user/);
  await page.getByRole('link', { name: ALBUM }).first().click();
  await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
}

async function loggedInContext(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await newContext(browser, { viewport });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, email);
  await page.close();
  return context;
}

describe('player', () => {
  it('plays the album from Your music: time runs, next/previous and the end of a track follow the spec', async () => {
    const context = await loggedInContext();
    const { page } = await newPage(context);
    await openAlbum(page);
    // Nothing loaded yet: no player on the page.
    expect(await player(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Play Track 1' }).click();
    await nowPlaying(page, 'Track 1');
    await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 15_000 }).toBeGreaterThan(1);
    await player(page)
      .getByText(/^00:0[1-9]$/)
      .first()
      .waitFor();
    await player(page).getByText('00:12').waitFor();
    await page.getByRole('button', { name: 'Pause Track 1' }).waitFor();
    if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'player-desktop.png') });
    expect(await seriousViolations(page)).toEqual([]);
    // The lock screen and media keys know the track.
    await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Track 1');
    expect(await page.evaluate(() => navigator.mediaSession.metadata?.album)).toBe(ALBUM);

    // Previous more than 2 s in restarts the track.
    await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 10_000 }).toBeGreaterThan(2.5);
    await player(page).getByRole('button', { name: 'Previous track' }).click();
    await expect.poll(async () => (await playingSound(page))?.seek ?? 99).toBeLessThan(2);
    await nowPlaying(page, 'Track 1');

    // Next, then previous within 2 s goes back a track.
    await player(page).getByRole('button', { name: 'Next track' }).click();
    await nowPlaying(page, 'Track 2');
    await expect.poll(async () => (await playingSound(page))?.src ?? '').toContain('/stream');
    await player(page).getByRole('button', { name: 'Previous track' }).click();
    await nowPlaying(page, 'Track 1');

    // The end of a track plays the next: seek to the end with the keyboard.
    const seek = player(page).getByRole('slider', { name: 'Seek' });
    await seek.focus();
    await page.keyboard.press('End');
    await nowPlaying(page, 'Track 2');
    await expect.poll(async () => Boolean(await playingSound(page)), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Track 2');
    // The clock follows the new track from its start, and keeps running after a keyboard seek.
    const elapsed = () => player(page).locator('.player-time').first().textContent();
    await expect.poll(elapsed, { timeout: 10_000 }).toMatch(/^00:0[1-3]$/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(elapsed, { timeout: 10_000 }).toMatch(/^00:0[5-9]$/);

    // Space on the scrubber pauses and plays.
    await page.keyboard.press('Space');
    await player(page).getByRole('button', { name: 'Play', exact: true }).waitFor();
    await expect.poll(async () => Boolean(await playingSound(page))).toBe(false);
    await page.keyboard.press('Space');
    await player(page).getByRole('button', { name: 'Pause', exact: true }).waitFor();

    // Next on the last track wraps to the first and stops.
    await player(page).getByRole('button', { name: 'Next track' }).click();
    await nowPlaying(page, 'Track 3');
    await player(page).getByRole('button', { name: 'Next track' }).click();
    await nowPlaying(page, 'Track 1');
    await player(page).getByRole('button', { name: 'Play', exact: true }).waitFor();
    await expect.poll(async () => Boolean(await playingSound(page))).toBe(false);

    // The track info links to the album page.
    await page.goto(`${server.baseUrl}/browse`);
    await player(page).getByRole('link', { name: 'Track 1' }).click();
    await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
    await context.close();
  });

  for (const variant of ['SharedWorker', 'BroadcastChannel fallback'] as const) {
    it(`plays a track clicked before the player's own code has loaded, on a slow phone (${variant})`, async () => {
      // No service worker, so every script comes over the network, where the player's start is held.
      const context = await newContext(browser, { viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
      if (variant === 'BroadcastChannel fallback') {
        // With no other tab, nobody leads until this tab's turn for the lock comes.
        await context.addInitScript(() => {
          Reflect.deleteProperty(globalThis, 'SharedWorker');
        });
      }
      const { page } = await newPage(context);
      await logIn(page, server.baseUrl, email);
      let releasePlayer = () => {};
      const playerHeld = new Promise<void>((resolve) => {
        releasePlayer = resolve;
      });
      let held = false;
      await page.route(/\/assets\/player-session-[^/]+\.js$/, async (route) => {
        held = true;
        await playerHeld;
        await route.continue();
      });
      await page.goto(`${server.baseUrl}${albumPath}`);
      await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
      // The player's own start is waiting: this click comes first.
      await expect.poll(() => held).toBe(true);
      await page.getByRole('button', { name: 'Play Track 1' }).click();
      releasePlayer();
      await nowPlaying(page, 'Track 1');
      await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.5);
      await context.close();
    });
  }

  it('a reloaded tab brings its player back at once, without waiting for the page to settle', async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    const { page } = await newPage(context);
    await logIn(page, server.baseUrl, email);
    await page.goto(`${server.baseUrl}${albumPath}`);
    await page.getByRole('button', { name: 'Play Track 1' }).click();
    await nowPlaying(page, 'Track 1');
    await player(page).getByRole('button', { name: 'Pause', exact: true }).click();

    // From here on the page's load event never comes (an image that never arrives), so the page
    // never settles: what the bar needs must not wait for that.
    await page.route(/\/never-arrives\.png$/, () => undefined);
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const image = document.createElement('img');
        image.src = '/never-arrives.png';
        document.body.append(image);
      });
    });
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
    await nowPlaying(page, 'Track 1');
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    await context.close();
  });

  it('a track that ends starts the next within its ended event, as iOS Safari requires (issue 27)', async () => {
    const context = await loggedInContext();
    // Every <audio> element Howler makes (it calls `new Audio()`) notes the task of its `ended`
    // event, and each play() call says whether it ran in one. Chromium would start a later play
    // too; iOS Safari does not.
    await context.addInitScript(() => {
      const plays: { src: string; inEnded: boolean }[] = [];
      const record = { inEnded: false, plays };
      Object.defineProperty(window, 'playerRecord', { value: record });
      const NativeAudio = window.Audio;
      const RecordingAudio = function (src?: string) {
        const element = new NativeAudio(src);
        element.addEventListener('ended', () => {
          record.inEnded = true;
          setTimeout(() => {
            record.inEnded = false;
          });
        });
        return element;
      };
      Object.defineProperty(window, 'Audio', { value: RecordingAudio, writable: true, configurable: true });
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        record.plays.push({ src: this.src, inEnded: record.inEnded });
        return play.call(this);
      };
    });
    const { page } = await newPage(context);
    const playsOf = (track: string) =>
      page.evaluate((fragment) => {
        const record: { plays: { src: string; inEnded: boolean }[] } = Reflect.get(window, 'playerRecord');
        return record.plays.filter((call) => call.src.includes(fragment));
      }, track);
    await openAlbum(page);
    await page.getByRole('button', { name: 'Play Track 1' }).click();
    await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.5);
    expect(await playsOf(secondTrackId)).toEqual([]);

    // Its last half second, then it ends by itself.
    await player(page).getByRole('slider', { name: 'Seek' }).focus();
    await page.keyboard.press('End');
    await nowPlaying(page, 'Track 2');
    await expect
      .poll(() => playsOf(secondTrackId))
      .toContainEqual({ src: expect.stringContaining(secondTrackId), inEnded: true });
    await expect.poll(async () => (await playingSound(page))?.src ?? '', { timeout: 10_000 }).toContain(secondTrackId);
    await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 10_000 }).toBeGreaterThan(1);
    await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Track 2');
    await context.close();
  });

  for (const variant of ['SharedWorker', 'BroadcastChannel fallback'] as const) {
    it(`playing in tab B pauses tab A; a reload keeps the player; logging out clears it (${variant})`, async () => {
      const context = await loggedInContext();
      if (variant === 'BroadcastChannel fallback') {
        // Chrome on Android lacked SharedWorker: the same behaviour must hold without it.
        await context.addInitScript(() => {
          Reflect.deleteProperty(globalThis, 'SharedWorker');
        });
      }
      const a = await newPage(context);
      const b = await newPage(context);
      const hasSharedWorker = () => a.page.evaluate(() => typeof SharedWorker !== 'undefined');
      await a.page.goto(server.baseUrl);
      expect(await hasSharedWorker()).toBe(variant === 'SharedWorker');
      await openAlbum(a.page);
      await a.page.getByRole('button', { name: 'Play Track 2' }).click();
      await expect.poll(async () => Boolean(await playingSound(a.page)), { timeout: 15_000 }).toBe(true);

      // Tab B shows the same player, and takes the sound when its play is pressed.
      await b.page.goto(`${server.baseUrl}/browse`);
      await nowPlaying(b.page, 'Track 2');
      await player(b.page).getByText('Playing in another tab').waitFor();
      await player(b.page).getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(async () => Boolean(await playingSound(b.page)), { timeout: 15_000 }).toBe(true);
      await expect.poll(async () => Boolean(await playingSound(a.page))).toBe(false);
      await player(a.page).getByText('Playing in another tab').waitFor();
      await player(a.page).getByRole('button', { name: 'Play', exact: true }).waitFor();

      // Pause in B, let time settle, and reload B alone: the tracklist and position come back.
      await expect.poll(async () => (await playingSound(b.page))?.seek ?? 0, { timeout: 10_000 }).toBeGreaterThan(2);
      await player(b.page).getByRole('button', { name: 'Pause', exact: true }).click();
      await a.page.close();
      await b.page.reload();
      await nowPlaying(b.page, 'Track 2');
      // Paused after more than 2 s: the reloaded tab shows about that much elapsed.
      const elapsed = await player(b.page).locator('.player-time').first().textContent();
      expect(elapsed).toMatch(/^00:0[2-9]$/);
      await player(b.page).getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(async () => (await playingSound(b.page))?.seek ?? 0, { timeout: 15_000 }).toBeGreaterThan(2);

      // Logging out clears the player, in this tab and in what it saved.
      await b.page.getByRole('button', { name: `Account menu for ${email}` }).click();
      await b.page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect.poll(() => player(b.page).count()).toBe(0);
      await expect.poll(async () => (await sounds(b.page)).length).toBe(0);
      expect(await b.page.evaluate(() => sessionStorage.getItem('soundcause-player'))).toBeNull();
      await logIn(b.page, server.baseUrl, email);
      await b.page.goto(`${server.baseUrl}/browse`);
      await b.page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await player(b.page).count()).toBe(0);
      await context.close();
    });
  }

  it('tabs on two coordinators (one opened before a deploy) still play one at a time', async () => {
    const context = await loggedInContext();
    const a = await newPage(context);
    const b = await newPage(context);
    // Without SharedWorker, tab B runs its own coordinator: as unaware of A as a tab of another build.
    await b.page.addInitScript(() => {
      Reflect.deleteProperty(globalThis, 'SharedWorker');
    });
    await openAlbum(a.page);
    await a.page.getByRole('button', { name: 'Play Track 1' }).click();
    await expect.poll(async () => Boolean(await playingSound(a.page)), { timeout: 15_000 }).toBe(true);
    await openAlbum(b.page);
    // B's player knows nothing of A's: it has no track until B plays one.
    expect(await player(b.page).count()).toBe(0);
    await b.page.getByRole('button', { name: 'Play Track 2' }).click();
    await expect.poll(async () => Boolean(await playingSound(b.page)), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => Boolean(await playingSound(a.page)), { timeout: 5_000 }).toBe(false);
    await player(a.page).getByRole('button', { name: 'Play', exact: true }).waitFor();
    await context.close();
  });

  it('a track that cannot load says so and moves on when asked; a dropped connection resumes by itself', async () => {
    const context = await loggedInContext();
    const { page } = await newPage(context);
    await openAlbum(page);
    // Track 1's stream is gone (say, removed on the server): the player says so and stops.
    allowConsoleErrors(
      page,
      /status of 404 .*\/api\/tracks\/\d+\/stream/,
      // Offline, requests fail in the service worker's hands (ERR_FAILED) or before it.
      /(ERR_INTERNET_DISCONNECTED|ERR_FAILED) .*\/api\/tracks\//,
      // While offline, the cover in the bar may be fetched for the next track, and the browser
      // may ask for the page's icon then (its own request: no code of the app's asks for it).
      /(ERR_INTERNET_DISCONNECTED|ERR_FAILED) .*\/media\/images\//,
      /ERR_INTERNET_DISCONNECTED .*\/favicon\.svg/,
    );
    await page.route(/\/api\/tracks\/\d+\/stream/, async (route) => {
      const isFirst = (await sounds(page)).length <= 1 && route.request().url().includes(firstTrackId);
      return isFirst ? route.fulfill({ status: 404, body: 'gone' }) : route.continue();
    });
    await page.getByRole('button', { name: 'Play Track 1' }).click();
    await player(page).getByText('This track could not be played.').waitFor();
    await player(page).getByRole('button', { name: 'Play', exact: true }).waitFor();
    await player(page).getByRole('button', { name: 'Next track' }).click();
    await nowPlaying(page, 'Track 2');
    await expect.poll(async () => Boolean(await playingSound(page)), { timeout: 10_000 }).toBe(true);
    await page.unroute(/\/api\/tracks\/\d+\/stream/);

    // The network drops as the next track starts: it waits, visibly, and plays once it is back.
    await context.setOffline(true);
    await player(page).getByRole('button', { name: 'Next track' }).click();
    await nowPlaying(page, 'Track 3');
    await player(page).getByText('Buffering…').waitFor({ timeout: 15_000 });
    await context.setOffline(false);
    await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 20_000 }).toBeGreaterThan(0.5);
    await expect.poll(() => player(page).locator('.player-notice').textContent()).toBe('');
    await context.close();
  });

  it('on a phone: a compact bar that opens a drawer with the cover, scrubber and controls', async () => {
    const context = await loggedInContext({ width: 390, height: 844 });
    const { page } = await newPage(context);
    await openAlbum(page);
    await page.getByRole('button', { name: 'Play Track 3' }).click();
    await nowPlaying(page, 'Track 3');
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'player-compact-390.png') });
    await expect.poll(() => player(page).getByRole('button', { name: 'Previous track' }).count()).toBe(0);
    await player(page)
      .getByRole('button', { name: /Open player: Track 3/ })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Music player' });
    await drawer.getByRole('slider', { name: 'Seek' }).waitFor();
    await drawer.getByRole('button', { name: 'Next track' }).waitFor();
    await expect.poll(() => drawer.getByRole('img').count()).toBe(0); // the cover is decorative (alt="")
    if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'player-drawer-390.png') });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await drawer.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(async () => Boolean(await playingSound(page))).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    // Focus goes back to the bar that opened the drawer.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^Open player/);
    await context.close();
  });
});
