import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fundraisers, fundraiserTracks, uploads, users } from '../../server/db/schema';
import { wav } from '../fixtures/audio';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createArtist, createFundraiser, RED_CROSS_EIN, uploadImage, uploadTrack } from '../fixtures/fundraisers';
import { widthInContainer } from '../fixtures/layout';
import { donate } from '../fixtures/donations';
import { registerUser, type TestServer, verifiedUser } from '../fixtures/test-server';

// Your music and the album page (spec part 1 section 2; issue 5), with the albums made through the
// real API and the tracks processed by the real job handlers. Playback is the player's own test.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const ownerEmail = 'album-owner@example.org';

function userId(email: string): number {
  return server.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
}

/** Nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** A new account's own album, with a cover and one processed track, in its Your music. */
async function ownAlbumWithOneTrack(email: string, artistName: string, albumName: string) {
  const owner = await verifiedUser(server, email);
  const artist = await createArtist(owner, { name: artistName });
  const album = await createFundraiser(owner, {
    artistId: artist.id,
    details: { name: albumName },
    uploads: {
      cover: await uploadImage(owner),
      preview: await uploadTrack(owner, wav({ seconds: 1, frequency: 550 }), 'preview.wav'),
      tracks: [await uploadTrack(owner, wav({ seconds: 1, frequency: 770 }), 'track.wav')],
    },
  });
  await server.jobs.drain();
  return album;
}

describe('Your music in Chromium', () => {
  it('shows the owner the processing state, then the album from page 2 of Your music, and back', async () => {
    const owner = await verifiedUser(server, ownerEmail);
    const artist = await createArtist(owner, { name: 'Harbor Lights' });
    const cover = await uploadImage(owner);
    const album = await createFundraiser(owner, {
      artistId: artist.id,
      details: { name: 'Harbor Songs' },
      uploads: {
        cover,
        preview: await uploadTrack(owner, wav({ seconds: 1, frequency: 660 }), 'preview.wav'),
        tracks: [
          await uploadTrack(owner, wav({ seconds: 3, frequency: 330 }), 'tide.wav'),
          await uploadTrack(owner, wav({ seconds: 1, frequency: 440 }), 'gulls.wav'),
        ],
      },
    });
    // The oldest of 21 albums, so it is the one on the second page.
    server.db
      .update(fundraisers)
      .set({ createdAt: new Date('2024-01-01T00:00:00Z') })
      .where(eq(fundraisers.id, album.id))
      .run();
    for (let i = 1; i <= 20; i++) {
      server.db
        .insert(fundraisers)
        .values({
          userId: userId(ownerEmail),
          artistId: artist.id,
          name: `Sketch ${i}`,
          charityEin: RED_CROSS_EIN.replace('-', ''),
          charityName: 'American National Red Cross',
          minimumDonationCents: 500,
          albumCoverId: cover,
          createdAt: new Date(Date.UTC(2024, 1, i)),
        })
        .run();
    }

    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, ownerEmail);

    // The manage page shows each track being processed, and turns to ready by itself.
    await page.goto(`${server.baseUrl}/fundraisers/user/${album.id}`);
    const music = page.locator('main').getByRole('region', { name: 'Music' });
    await music.getByText('Processing your music: 0 of 2 tracks ready.').waitFor();
    expect(await music.getByText('Processing…').count()).toBe(3);
    await server.jobs.drain();
    await music.getByText('All tracks are ready to play.').waitFor({ timeout: 10_000 });
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/manage-1280.png`, fullPage: true });
    expect(await music.getByText('Ready', { exact: true }).count()).toBe(3);

    // Your music opens on the past-donations tab, empty until the user donates.
    await page.goto(`${server.baseUrl}/music`);
    await page.waitForURL('**/music/albums/past-donations');
    const main = page.locator('main');
    await main.getByText("You haven't donated to any fundraisers yet.").waitFor();
    await main.getByRole('link', { name: 'Your fundraisers' }).click();
    await page.waitForURL('**/music/albums/user');
    await expect.poll(() => main.locator('.album-tile').count()).toBe(20);
    await main.getByText('Page 1 of 2').waitFor();
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/music-1280.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await main.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL('**/music/albums/user?page=1');
    const tile = main.locator('.album-tile').filter({ hasText: 'Harbor Songs' });
    await tile.getByText('Harbor Lights').waitFor();
    await tile.getByText('Jan 1, 2024').waitFor();
    await tile.getByRole('link', { name: 'Harbor Songs' }).click();

    await page.waitForURL(`**/music/album/${album.urlSlug}?from=user&page=1`);
    await main.getByRole('heading', { level: 1, name: 'Harbor Songs' }).waitFor();
    await expect.poll(() => page.title()).toBe('Harbor Songs | Soundcause');
    expect(await main.getByRole('link', { name: 'Harbor Lights' }).getAttribute('href')).toBe('/artists/harbor-lights');
    const cells = await main
      .locator('table.album-tracks tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.innerText.trim())));
    expect(cells).toEqual([
      ['', '1', 'Track 1', '00:03', ''],
      ['', '2', 'Track 2', '00:01', ''],
    ]);
    await main.getByRole('button', { name: 'Play Track 1' }).waitFor();
    await main.getByRole('button', { name: 'Play Track 2' }).waitFor();
    const cover400 = main.locator('.album-page-cover img');
    await expect
      .poll(() => cover400.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/album-1280.png`, fullPage: true });

    // 'Download songs' is a plain link that saves the album zip.
    const download = page.waitForEvent('download');
    await main.getByRole('link', { name: 'Download songs' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('Harbor Songs.zip');
    const zip = fs.readFileSync(await saved.path());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.toString('latin1')).toContain('01 - Track 1.wav');

    // 'View fundraiser' leads to the public page.
    await main.getByRole('link', { name: 'View fundraiser' }).click();
    await page.waitForURL(`**/projects/${album.urlSlug}`);
    await main.getByRole('heading', { level: 1, name: 'Harbor Songs' }).waitFor();
    await page.goBack();

    // The back link returns to the page the album was opened from.
    await main.getByRole('link', { name: 'Your music' }).click();
    await page.waitForURL('**/music/albums/user?page=1');
    await main.getByText('Page 2 of 2').waitFor();
    await main.getByRole('link', { name: 'Harbor Songs' }).waitFor();
  });

  it('draws an album before the offline store loads, and syncs a device with nothing saved once the user acts (390 px)', async () => {
    const email = 'album-first-load@example.org';
    const album = await ownAlbumWithOneTrack(email, 'Quiet Rooms', 'Rooms');
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, email);
    // The login page queued the header's menus once the test typed on it; leaving it for a blank
    // page first keeps those late loads out of what the album's page is said to load below.
    await page.goto('about:blank');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });

    // A new page load, untouched: the album's page comes with its cover and its code named in the
    // HTML, draws its tracks, then reads the offline store for its save controls; the store's
    // sync (nothing is saved on this device) waits.
    await page.goto(`${server.baseUrl}/music/album/${album.urlSlug}`);
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: 'Rooms' }).waitFor();
    const head = await page.locator('head').innerHTML();
    expect(head).toMatch(
      /<link rel="modulepreload" fetchpriority="low" crossorigin="" href="\/assets\/album-page-[^"]+\.js">/,
    );
    expect(head).toMatch(/<link rel="preload" as="image" fetchpriority="high" href="\/media\/images\/[^"]+">/);
    await main.getByRole('button', { name: 'Save for offline' }).waitFor();
    await main.getByRole('button', { name: 'Save Track 1 for offline' }).waitFor();
    expect(scripts.some((script) => /\/assets\/album-offline-/.test(script))).toBe(true);
    await page.waitForTimeout(2000);
    expect(scripts.filter((script) => /\/assets\/offline-sync-/.test(script))).toEqual([]);
    // Nor does a phone load the header's account menu: it is drawn at desktop widths only.
    expect(scripts.filter((script) => /\/assets\/account-menu-/.test(script))).toEqual([]);

    await main.getByRole('heading', { level: 1 }).click();
    await expect.poll(() => scripts.some((script) => /\/assets\/offline-sync-/.test(script))).toBe(true);
  });

  it("draws an album's top before its app starts, exactly where the app then draws it, at both widths", async () => {
    const email = 'album-drawn-first@example.org';
    const album = await ownAlbumWithOneTrack(email, 'Early Birds', 'Dawn Chorus');
    const parts = [
      '.album-back a',
      '.album-page-cover img',
      '.album-summary h1',
      '.album-artist',
      '.album-summary .actions',
    ];
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const boxesOf = async (withScripts: boolean) => {
        const { page } = await newPage(browser, viewport);
        await logIn(page, server.baseUrl, email);
        await page.goto('about:blank');
        if (withScripts) {
          // The save control comes once the page has settled, and at desktop widths it lifts the
          // names (the hero's columns end together): held, the page stays as the app first draws it.
          await page.route('**/assets/album-offline-*.js', () => undefined);
        } else {
          // Without its scripts the page shows only what its HTML draws itself.
          await page.route('**/*.js', (route) => route.abort());
          allowConsoleErrors(page, /Failed to load resource/);
        }
        await page.goto(`${server.baseUrl}/music/album/${album.urlSlug}`);
        const main = page.locator('main');
        if (withScripts) await main.getByRole('table').waitFor();
        const cover = main.getByRole('img', { name: 'Album cover of Dawn Chorus' });
        await expect
          .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        await main.getByRole('heading', { level: 1, name: 'Dawn Chorus' }).waitFor();
        await main.getByRole('link', { name: 'Early Birds' }).waitFor();
        await main.getByRole('link', { name: 'View fundraiser' }).waitFor();
        const boxes = await Promise.all(parts.map((part) => page.locator(part).boundingBox()));
        await page.close();
        return boxes;
      };
      const before = await boxesOf(false);
      const after = await boxesOf(true);
      expect(before.every((box) => box !== null && box.width > 0 && box.height > 0)).toBe(true);
      expect(before).toEqual(after);
    }
  });

  it('fits a phone, explains a legacy album and a track that failed, and hides albums from others', async () => {
    const owner = await verifiedUser(server, 'legacy-owner@example.org');
    const artist = await createArtist(owner, { name: 'Old Timers' });
    const legacy = await createFundraiser(owner, { artistId: artist.id, details: { name: 'Old Tapes' } });
    const zipId = 'e2e-legacy-zip';
    fs.writeFileSync(server.media.zipFile(zipId), Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(64)]));
    server.db
      .insert(uploads)
      .values({
        id: zipId,
        userId: userId('legacy-owner@example.org'),
        kind: 'zip',
        format: 'zip',
        originalName: 'tapes.zip',
        bytes: 68,
      })
      .run();
    server.db
      .update(fundraisers)
      .set({ hasV1Tracks: true, tracksZipUploadId: zipId })
      .where(eq(fundraisers.id, legacy.id))
      .run();
    server.db
      .update(fundraiserTracks)
      .set({ uploadId: null, status: 'ready' })
      .where(eq(fundraiserTracks.fundraiserId, legacy.id))
      .run();
    const broken = await createFundraiser(owner, {
      artistId: artist.id,
      details: { name: 'Broken Record With A Rather Long Name That Has To Wrap' },
    });
    await server.jobs.drain();
    const [failedTrack] = broken.tracksList;
    server.db
      .update(fundraiserTracks)
      .set({ status: 'failed', error: 'The file is silent.', streamFile: null })
      .where(eq(fundraiserTracks.id, failedTrack!.id))
      .run();

    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, 'legacy-owner@example.org');
    const main = page.locator('main');

    await page.goto(`${server.baseUrl}/music/album/${legacy.urlSlug}`);
    await main.getByRole('heading', { level: 1, name: 'Old Tapes' }).waitFor();
    await main.getByText('These tracks are not yet available for streaming.').waitFor();
    expect(await main.getByRole('button', { name: /^Play/ }).count()).toBe(0);
    expect(await main.getByRole('link', { name: 'Download songs' }).getAttribute('href')).toBe(
      `/api/fundraisers/${legacy.id}/download`,
    );
    expect(await main.locator('.album-legacy-tracks li').allInnerTexts()).toEqual(['Track 1', 'Track 2']);
    // Opened without a list to return to, the back link goes to Your music's first tab.
    expect(await main.getByRole('link', { name: 'Your music' }).getAttribute('href')).toBe(
      '/music/albums/past-donations',
    );
    await expectNoSidewaysScroll(page, mobileViewport.width);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${server.baseUrl}/music/album/${broken.urlSlug}`);
    await main.getByRole('heading', { level: 1, name: /Broken Record/ }).waitFor();
    const failedRow = main.locator('table.album-tracks tbody tr').first();
    await failedRow.getByText('Unavailable: this track could not be processed.').waitFor();
    expect(await failedRow.getByRole('button').count()).toBe(0);
    await main.getByRole('button', { name: 'Play Track 2' }).waitFor();
    await expectNoSidewaysScroll(page, mobileViewport.width);
    // The cover takes the phone's whole width, as music apps show one (it was a fixed 320 px).
    const cover = await widthInContainer(main.locator('.album-page-cover'));
    expect(cover.container).toBeGreaterThan(320);
    expect(cover.width).toBeCloseTo(cover.container, 0);
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/album-390.png`, fullPage: true });

    // The owner sees why on the manage page.
    await page.goto(`${server.baseUrl}/fundraisers/user/${broken.id}`);
    await main.getByText('Failed: The file is silent.').waitFor();
    await main.getByText('1 file could not be processed. Please upload it again.').waitFor();

    await page.goto(`${server.baseUrl}/music/albums/user`);
    await expect.poll(() => main.locator('.album-tile').count()).toBe(2);
    await expectNoSidewaysScroll(page, mobileViewport.width);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/music-390.png`, fullPage: true });

    // Someone else gets the not-found page, with a way back to their own music.
    await verifiedUser(server, 'nosy@example.org');
    const other = await newPage(browser);
    allowConsoleErrors(other.page, /status of 404 .*\/api\/music-library\/album\/slug\/old-tapes\)$/);
    await logIn(other.page, server.baseUrl, 'nosy@example.org');
    await other.page.goto(`${server.baseUrl}/music/album/${legacy.urlSlug}?from=user&page=2`);
    await other.page.getByRole('heading', { level: 1, name: 'Album not found' }).waitFor();
    expect(await other.page.getByText('Old Tapes').count()).toBe(0);
    expect(await other.page.getByRole('link', { name: 'Back to Your music' }).getAttribute('href')).toBe(
      '/music/albums/user?page=2',
    );
  });

  it('asks an account whose email is not verified to verify it, then lists what that address bought', async () => {
    const email = 'unverified-buyer@example.org';
    const owner = await verifiedUser(server, 'verify-owner@example.org');
    const bought = await createFundraiser(owner, { tracks: 1, publish: true, details: { name: 'Proof of Address' } });
    await donate(server, { fundraiserId: bought.id, email });
    await registerUser(server.client(), email);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, email);
    await page.goto(`${server.baseUrl}/music/albums/past-donations`);
    const main = page.locator('main');
    await main.getByText('Verify your email to see the albums you donated for').waitFor();
    expect(await main.getByText("You haven't donated").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await main.getByRole('link', { name: 'Verify your email' }).click();
    await page.waitForURL('**/user/verify-email');
    await page.getByLabel('Verification code').fill(server.outbox.latestCode(email));
    await page.getByRole('button', { name: 'Verify email' }).click();
    // Back where they came from, with the album the address bought.
    await page.waitForURL('**/music/albums/past-donations');
    await main.getByRole('link', { name: 'Proof of Address' }).waitFor();
  });
});
