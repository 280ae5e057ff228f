import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { runCli } from '../fixtures/cli';
import { logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { catalogueRow, writeCatalogue } from '../fixtures/legacy-catalogue';
import { adminClient, type TestServer } from '../fixtures/test-server';

// A legacy catalogue imported into a running site (`npm run cli -- import-legacy`, its own
// process, on the site's data folder), then seen in Chromium by an admin: the fundraiser's page,
// its download-only album page and its album zip, and the legacy edit form with 'Upgrade to streaming'.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

let folder: string | undefined;
afterAll(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('an imported legacy catalogue in Chromium', () => {
  it('shows an admin the fundraiser, the download-only album and its zip, and the legacy edit form', async () => {
    const file = await writeCatalogue([
      catalogueRow('e2e-1', {
        name: 'Songs from the First Site',
        artist_name: 'The First Site Band',
        track_names: 'Opening night\nClosing time',
      }),
    ]);
    folder = path.dirname(file);
    const run = await runCli(['import-legacy', file], server.dataDir);
    expect(run.code, run.stderr).toBe(0);
    const fundraiser = fundraiserSchema.parse(
      (await server.client().get('/api/fundraisers/slug/songs-from-the-first-site')).json,
    );

    await adminClient(server);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, 'admin@example.org');
    const main = page.locator('main');

    await page.goto(`${server.baseUrl}/projects/${fundraiser.urlSlug}`);
    await main.getByRole('heading', { level: 1, name: 'Songs from the First Site' }).waitFor();
    await main.getByRole('link', { name: 'The First Site Band' }).first().waitFor();
    await main.getByText('American National Red Cross').first().waitFor();
    await main.getByText('Opening night').waitFor();

    // The download-only album page: no player, the zip to download.
    await page.goto(`${server.baseUrl}/music/album/${fundraiser.urlSlug}`);
    await main.getByText('These tracks are not yet available for streaming.').waitFor();
    expect(await main.getByRole('listitem').allTextContents()).toEqual(['Opening night', 'Closing time']);
    expect(await main.getByRole('button', { name: /^Play / }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const download = page.waitForEvent('download');
    await main.getByRole('link', { name: 'Download songs' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('Songs from the First Site.zip');
    expect(sha256(fs.readFileSync(await saved.path()))).toBe(sha256(fs.readFileSync(path.join(folder, 'album.zip'))));

    // At a phone's width the album page fits, its download at hand.
    await page.setViewportSize(mobileViewport);
    await main.getByRole('link', { name: 'Download songs' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(mobileViewport.width);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The legacy form, which an admin may upgrade to streaming.
    await page.goto(`${server.baseUrl}/fundraisers/user/${fundraiser.id}/edit`);
    await main.getByText('Legacy fundraiser', { exact: true }).waitFor();
    await main.getByLabel('Album zip file').waitFor();
    expect(await main.getByLabel('Track 1 name').inputValue()).toBe('Opening night');
    await main.getByRole('button', { name: 'Upgrade to streaming' }).click();
    await main.getByText('Upload a file for every track').waitFor();
  });
});
