import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Browser, Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { transcodes } from '../../server/db/schema';
import { chooseFfmpeg } from '../../server/infra/audio/ffmpeg';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { losslessUnavailableReason } from '../../shared/download-formats';
import { wav } from '../fixtures/audio';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { donate } from '../fixtures/donations';
import { fillForm, logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { futureExpiry } from '../fixtures/test-cards';
import { createFundraiser, uploadImage, uploadTrack } from '../fixtures/fundraisers';
import { type TestServer, verifiedUser } from '../fixtures/test-server';
import { readZip } from '../fixtures/zips';

// Download formats in the browser (issue 27), at a phone's width: a fan who bought an album of WAV
// originals picks FLAC on its page, watches it being prepared track by track, and the zip arrives
// by itself; one track comes as MP3 320 from its row's menu; the fundraiser page lists the formats
// and their sizes before buying; a guest's receipt link offers the same choice; and an album with an
// MP3 original says why it is not offered losslessly. The job queue runs only when the test says,
// so each step of a preparation can be seen. SHOT_DIR=/tmp/formats-shots keeps screenshots.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const FAN = 'formats-fan@example.org';
const GUEST = 'formats-guest@example.org';
const ALBUM = 'Harbor Songs';
const MIXED = 'Tapes and Takes';
let album: Fundraiser;
let mixed: Fundraiser;

/** A real MP3, made by the server's own ffmpeg. */
function mp3(seconds: number): Buffer {
  const made = spawnSync(
    chooseFfmpeg(undefined).path,
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', `sine=frequency=520:duration=${seconds}:sample_rate=44100`],
      ...['-c:a', 'libmp3lame', '-f', 'mp3', '-'],
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  expect(made.status, made.stderr?.toString()).toBe(0);
  return made.stdout;
}

beforeAll(async () => {
  const owner = await verifiedUser(server, 'formats-owner@example.org');
  const uploads = async (tracks: { bytes: Buffer; name: string }[]) => ({
    cover: await uploadImage(owner),
    preview: await uploadTrack(owner, wav({ seconds: 1, frequency: 660 }), 'preview.wav'),
    tracks: await Promise.all(tracks.map((track) => uploadTrack(owner, track.bytes, track.name))),
  });
  album = await createFundraiser(owner, {
    details: { name: ALBUM },
    publish: true,
    uploads: await uploads(
      [3, 2, 2].map((seconds, index) => ({
        bytes: wav({ seconds, frequency: 330 + index * 110, sampleRate: 22_050 }),
        name: `track-${index + 1}.wav`,
      })),
    ),
  });
  mixed = await createFundraiser(owner, {
    artistId: album.artist.id,
    details: { name: MIXED },
    publish: true,
    uploads: await uploads([
      { bytes: wav({ seconds: 2 }), name: 'take-1.wav' },
      { bytes: mp3(2), name: 'take-2.mp3' },
    ]),
  });
  await verifiedUser(server, FAN);
  await donate(server, { fundraiserId: album.id, email: FAN });
  await donate(server, { fundraiserId: mixed.id, email: FAN });
  await donate(server, { fundraiserId: album.id, email: GUEST });
  // The tracks' processing and the receipts: what is left in the queue is what the pages ask for.
  await server.jobs.drain();
}, 120_000);

const shot = async (page: Page, name: string) => {
  if (!process.env.SHOT_DIR) return;
  fs.mkdirSync(process.env.SHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${process.env.SHOT_DIR}/${name}.png`, fullPage: true });
};

/** Nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** The entries of a downloaded zip. */
async function zipNames(download: Download): Promise<string[]> {
  return (await readZip(await download.path())).map((entry) => entry.name);
}

function receiptLink(email: string): string {
  const receipt = server.outbox
    .messages(email)
    .at(-1)!
    .replace(/=\r?\n/g, '');
  const link = receipt.match(/https?:\/\/[^\s"]+\/purchases\/[A-Za-z0-9_-]{43}/)![0];
  return link.replace(/^https?:\/\/[^/]+/, server.baseUrl);
}

/** Opens "Download as…" and answers its dialog. */
async function openFormats(page: Page) {
  await page.locator('main').getByRole('button', { name: 'Download as…' }).click();
  const dialog = page.getByRole('dialog', { name: `Download “${ALBUM}”` });
  await dialog.getByRole('button', { name: /^FLAC\W+about [\d.]+ [KM]?B$/ }).waitFor();
  return dialog;
}

describe('download formats in Chromium', () => {
  it('prepares the album in FLAC with its progress, downloads it by itself, and one track as MP3 320', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, FAN);
    await page.goto(`${server.baseUrl}/music/album/${album.urlSlug}`);
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
    // The originals' zip stays as it was, beside the choice of formats.
    expect(await main.getByRole('link', { name: 'Download songs' }).getAttribute('href')).toBe(
      `/api/fundraisers/${album.id}/download`,
    );

    const dialog = await openFormats(page);
    const choices = await dialog.getByRole('button', { name: /about/ }).allInnerTexts();
    expect(choices.map((text) => text.replace(/\s+about .*$/s, ''))).toEqual([
      'Original files',
      'MP3 320',
      'MP3 V0',
      'AAC 256',
      'Opus 128',
      'FLAC',
      'ALAC',
      'WAV',
    ]);
    expect(await dialog.getByRole('button', { disabled: true }).count()).toBe(0);
    await dialog.getByText('Lossless, compressed.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'album-dialog-390');

    await dialog.getByRole('button', { name: /^FLAC\W/ }).click();
    await dialog.waitFor({ state: 'detached' });
    const status = main.getByRole('status').filter({ hasText: /FLAC/ });
    await status.getByText('Preparing FLAC · 0 of 3 tracks', { exact: true }).waitFor();
    const bar = main.getByRole('progressbar', { name: 'Preparing FLAC · 0 of 3 tracks' });
    expect([await bar.getAttribute('max'), await bar.getAttribute('value')]).toEqual(['3', '0']);
    await shot(page, 'album-preparing-390');

    // One track done: the page, asking every second or so, counts it.
    expect(await server.jobs.runOnce()).toBe(true);
    await status.getByText('Preparing FLAC · 1 of 3 tracks', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await main.getByRole('progressbar').getAttribute('value')).toBe('1');

    // The rest: the zip comes without another click.
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await server.jobs.drain();
    const zip = await download;
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    expect(await zipNames(zip)).toEqual(['01 - Track 1.flac', '02 - Track 2.flac', '03 - Track 3.flac', 'cover.jpg']);
    await status.getByText('FLAC is ready. Your download has started.', { exact: true }).waitFor();
    expect(await main.getByRole('link', { name: 'Download FLAC' }).getAttribute('href')).toMatch(
      /^\/api\/music-library\/album\/\d+\/download\?format=flac$/,
    );
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'album-ready-390');

    // One track, from its row: its own menu, its own progress, its own file.
    const row = main.locator('table.album-tracks tbody tr').nth(1);
    await row.getByRole('button', { name: 'Download “Track 2”' }).click();
    const menu = page.getByRole('menu');
    await menu.getByText('Download “Track 2” as').waitFor();
    const mp3Item = menu.getByRole('menuitem', { name: /^MP3 320/ });
    await mp3Item.getByText(/^about [\d.]+ [KM]?B$/).waitFor();
    await shot(page, 'track-menu-390');
    // The line shows as soon as it is chosen; the drain must wait for the job to be queued.
    const asked = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/formats/mp3-320'),
    );
    await mp3Item.click();
    await row.getByRole('status').getByText('Preparing MP3 320…', { exact: true }).waitFor();
    const single = page.waitForEvent('download', { timeout: 20_000 });
    await asked;
    await server.jobs.drain();
    expect((await single).suggestedFilename()).toBe('02 - Track 2.mp3');
    await row.getByRole('status').getByText('MP3 320 is ready. Your download has started.', { exact: true }).waitFor();
    await expectNoSidewaysScroll(page);

    // By keys, on rows whose menus were never made (each is made when its button is first
    // pressed): Enter or ArrowDown opens it with its first item focused, as Radix's own trigger
    // does, and Escape closes it and gives the focus back.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('role') ?? '');
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    const keyMenu = page.getByRole('menu');
    for (const [index, key] of [
      [2, 'Enter'],
      [0, 'ArrowDown'],
    ] as const) {
      const name = `Track ${index + 1}`;
      await main
        .locator('table.album-tracks tbody tr')
        .nth(index)
        .getByRole('button', { name: `Download “${name}”` })
        .focus();
      await page.keyboard.press(key);
      await keyMenu.getByText(`Download “${name}” as`).waitFor();
      await expect.poll(focused).toBe('menuitem');
      await page.keyboard.press('Escape');
      await keyMenu.waitFor({ state: 'detached' });
      await expect.poll(focusedLabel).toBe(`Download “${name}”`);
    }
    // Made once, it opens again as every menu does.
    await page.keyboard.press('Enter');
    await keyMenu.getByText('Download “Track 1” as').waitFor();
    await expect.poll(focused).toBe('menuitem');
    await page.keyboard.press('Escape');
    await keyMenu.waitFor({ state: 'detached' });

    // The same page on a desktop.
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'album-ready-1280');
    await openFormats(page);
    await shot(page, 'album-dialog-1280');
  });

  it('says an album with an MP3 original is not offered losslessly, and why', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, FAN);
    await page.goto(`${server.baseUrl}/music/album/${mixed.urlSlug}`);
    await page.locator('main').getByRole('button', { name: 'Download as…' }).click();
    const dialog = page.getByRole('dialog', { name: `Download “${MIXED}”` });
    const flac = dialog.getByRole('button', { name: /^FLAC\W+Not offered$/ });
    await flac.waitFor();
    expect(await flac.isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { disabled: true }).count()).toBe(3);
    expect(await dialog.getByRole('button', { name: /^MP3 320\W+about/ }).isEnabled()).toBe(true);
    await dialog.getByText(`FLAC, ALAC and WAV: ${losslessUnavailableReason}`).waitFor();
    // The disabled choice is described by what it is and why it is not offered.
    const describedBy = (await flac.getAttribute('aria-describedby'))!.split(' ');
    const descriptions = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).innerText()));
    expect(descriptions.join(' ')).toBe(`Lossless, compressed. FLAC, ALAC and WAV: ${losslessUnavailableReason}`);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'mixed-dialog-390');
  });

  it('lists the formats and their sizes on the fundraiser page before buying', async () => {
    const { page } = await newPage(browser, mobileViewport);
    for (const width of [mobileViewport.width, 1280]) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : mobileViewport.height });
      await page.goto(`${server.baseUrl}/projects/${album.urlSlug}`);
      await page.getByRole('heading', { level: 2, name: 'Tracklist' }).scrollIntoViewIfNeeded();
      const formats = page.getByRole('region', { name: 'Download formats' });
      await formats.getByText('MP3 320').waitFor();
      const rows = await formats.getByRole('listitem').allInnerTexts();
      expect(rows).toHaveLength(8);
      for (const row of rows) expect(row).toMatch(/^[A-Z][\w ]+\s+[\d.]+ [KM]?B$/);
      expect(rows.some((row) => row.startsWith('FLAC'))).toBe(true);
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await formats.scrollIntoViewIfNeeded();
      await shot(page, `fundraiser-formats-${width}`);
    }

    await page.goto(`${server.baseUrl}/projects/${mixed.urlSlug}`);
    await page.getByRole('heading', { level: 2, name: 'Tracklist' }).scrollIntoViewIfNeeded();
    const formats = page.getByRole('region', { name: 'Download formats' });
    await formats.getByText(`FLAC, ALAC and WAV: ${losslessUnavailableReason}`).waitFor();
    expect(await formats.getByRole('listitem').count()).toBe(5);
    await shot(page, 'fundraiser-formats-mixed-1280');
  });

  it('gives a guest with the receipt’s link the same choice', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(receiptLink(GUEST));
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
    const dialog = await openFormats(page);
    await dialog.getByRole('button', { name: /^MP3 V0\W/ }).click();
    const status = main.getByRole('status').filter({ hasText: /MP3 V0/ });
    await status.getByText('Preparing MP3 V0 · 0 of 3 tracks', { exact: true }).waitFor();
    await shot(page, 'purchase-preparing-390');
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await server.jobs.drain();
    expect(await zipNames(await download)).toEqual([
      '01 - Track 1.mp3',
      '02 - Track 2.mp3',
      '03 - Track 3.mp3',
      'cover.jpg',
    ]);
    await status.getByText('MP3 V0 is ready. Your download has started.', { exact: true }).waitFor();
    expect(await main.getByRole('link', { name: 'Download MP3 V0' }).getAttribute('href')).toMatch(
      /^\/api\/purchases\/[A-Za-z0-9_-]{43}\/download\?format=mp3-v0$/,
    );

    // A track of it, under the guest's own grant.
    const track = main.getByRole('listitem').filter({ hasText: 'Track 3' });
    await track.getByRole('button', { name: 'Download “Track 3”' }).click();
    // The job must be queued before the drain: a drain that finds nothing returns at once, and the
    // job queued after it would wait for a runner the test server does not start.
    const asked = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/formats/opus-128'),
    );
    await page.getByRole('menuitem', { name: /^Opus 128/ }).click();
    const single = page.waitForEvent('download', { timeout: 20_000 });
    await asked;
    await server.jobs.drain();
    expect((await single).suggestedFilename()).toBe('03 - Track 3.opus');
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'purchase-ready-390');
  });

  it('buys the album in the browser, then picks FLAC on the success page and receives the zip', async () => {
    // The first test made this album's FLAC: as if the cache had evicted it since, it is made again.
    server.db.delete(transcodes).where(eq(transcodes.format, 'flac')).run();
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate`);
    await page.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
    await fillForm(page, { Name: 'June Carter', Email: 'formats-success@example.org', Donation: '10' });
    await page.getByRole('button', { name: 'No tip' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await fillForm(page, { 'Card number': '4242 4242 4242 4242', Expiry: futureExpiry(), CVC: '123' });
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(`**/projects/${album.urlSlug}/donate/success?payment_intent=*`);
    await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
    const flac = await openFormats(page);
    await flac.getByRole('button', { name: /^FLAC\W/ }).click();
    await page.locator('main').getByText('Preparing FLAC · 0 of 3 tracks', { exact: true }).waitFor();
    const flacZip = page.waitForEvent('download', { timeout: 20_000 });
    await server.jobs.drain();
    expect(await zipNames(await flacZip)).toEqual([
      '01 - Track 1.flac',
      '02 - Track 2.flac',
      '03 - Track 3.flac',
      'cover.jpg',
    ]);
    await expectNoSidewaysScroll(page);
    const dialog = await openFormats(page);
    await dialog.getByRole('button', { name: /^AAC 256\W/ }).click();
    const status = page
      .locator('main')
      .getByRole('status')
      .filter({ hasText: /AAC 256/ });
    await status.getByText('Preparing AAC 256 · 0 of 3 tracks', { exact: true }).waitFor();
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await server.jobs.drain();
    expect(await zipNames(await download)).toEqual([
      '01 - Track 1.m4a',
      '02 - Track 2.m4a',
      '03 - Track 3.m4a',
      'cover.jpg',
    ]);
    expect(await page.getByRole('link', { name: 'Download AAC 256' }).getAttribute('href')).toMatch(
      new RegExp(`^/api/fundraisers/${album.id}/download\\?.*format=aac-256`),
    );
  });
});
