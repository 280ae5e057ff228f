import { eq, inArray } from 'drizzle-orm';
import type { Browser, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fundraiserListSchema } from '../../shared/answers/fundraisers';
import { uploads } from '../../server/db/schema';
import { cleanupUnusedUploads } from '../../server/features/uploads/service';
import { UNUSED_UPLOAD_TTL_MS } from '../../server/infra/storage/upload-records';
import { wav } from '../fixtures/audio';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createArtist } from '../fixtures/fundraisers';
import { png } from '../fixtures/images';
import { type TestServer, verifiedUser } from '../fixtures/test-server';
import { throughCharityStep } from '../fixtures/wizard';

// FILE_NO_LONGER_AVAILABLE in the forms (spec part 1 section 8): a file uploaded long enough ago
// to have been removed is named on its field, emptied there, and taken again once re-uploaded.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const refused = /status of 400 .*\/api\/(artists\/new|fundraisers\/music)\)$/;
const fieldMessage = 'This file is no longer available. Please upload it again.';

/** Uploads through a field's hidden file input and waits until the upload is done. */
async function upload(field: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  await field.locator('input[type=file]').setInputFiles(file);
  await field.getByRole('button', { name: /^(Choose another image|Replace file)$/ }).waitFor({ timeout: 20_000 });
}

const track = (name: string, frequency: number) => ({ name, mimeType: 'audio/wav', buffer: wav({ frequency }) });

/** The user's uploads named so, as an hour and more after they were made, removed by cleanup. */
async function removeUploads(originalNames: string[]) {
  const rows = server.db.select().from(uploads).where(inArray(uploads.originalName, originalNames)).all();
  expect(rows.map((row) => row.originalName).sort()).toEqual([...originalNames].sort());
  for (const row of rows) {
    const past = new Date(Date.now() - UNUSED_UPLOAD_TTL_MS - 60_000);
    server.db.update(uploads).set({ createdAt: past }).where(eq(uploads.id, row.id)).run();
  }
  await cleanupUnusedUploads(server);
  return rows.map((row) => row.id);
}

describe('files that are no longer available, in Chromium', () => {
  it("the wizard's music step names each file gone after a long break, forgets it, and takes it again", async () => {
    const email = 'long-break@example.org';
    const api = await verifiedUser(server, email);
    await createArtist(api, { name: 'The Long Breaks' });
    const { page } = await newPage(browser);
    allowConsoleErrors(page, refused);
    await logIn(page, server.baseUrl, email);

    await page.goto(`${server.baseUrl}/fundraisers/new`);
    await throughCharityStep(page, /The Long Breaks/);
    await fillForm(page, { Name: 'After the Break', Description: 'Songs finished after a long pause.' });
    await page.getByLabel('Primary genre').selectOption('Folk');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/fundraisers/new/music');

    await upload(page.getByRole('group', { name: 'Album cover' }), {
      name: 'break-cover.png',
      mimeType: 'image/png',
      buffer: await png(400, 400),
    });
    const preview = page.getByRole('group', { name: 'Preview track file' });
    await upload(preview, track('break-preview.wav', 300));
    const firstTrack = page.getByRole('group', { name: 'Track 1', exact: true });
    const trackFile = firstTrack.getByRole('group', { name: 'Track file' });
    await firstTrack.getByLabel('Track name').fill('Only song');
    await upload(trackFile, track('break-song.wav', 500));

    // The user comes back more than an hour later (the wizard kept everything in the tab) and
    // the preview and the track, never saved, have been cleared away meanwhile.
    const gone = await removeUploads(['break-preview.wav', 'break-song.wav']);
    await page.reload();
    await preview.getByText('break-preview.wav').waitFor();
    await page.getByRole('button', { name: 'Create fundraiser' }).click();

    const dialog = page.getByRole('dialog', { name: 'Unable to create fundraiser' });
    await dialog
      .getByText(
        'The preview track and file of track 1 are no longer available: uploads not saved within an hour are removed. Please upload them again.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await preview.getByText(fieldMessage).waitFor();
    await trackFile.getByText(fieldMessage).waitFor();
    // Emptied: the field offers to choose a file again, and the tab forgets the ids that name nothing.
    expect(await preview.getByText('break-preview.wav').count()).toBe(0);
    const stored = await page.evaluate(() => sessionStorage.getItem('soundcause-fundraiser-wizard') ?? '');
    for (const id of gone) expect(stored).not.toContain(id);
    expect(stored).toContain('Only song');

    await upload(preview, track('again-preview.wav', 310));
    await upload(trackFile, track('again-song.wav', 510));
    await page.getByRole('button', { name: 'Create fundraiser' }).click();
    await page.waitForURL('**/projects/after-the-break');
    const [created] = fundraiserListSchema.parse((await api.get('/api/fundraisers/user')).json);
    expect(created!.tracksList.map((item) => item.name)).toEqual(['Only song']);
  });

  it('the artist form puts it on the profile image at phone width, and creates the artist once it is uploaded again', async () => {
    const email = 'slow-artist@example.org';
    await verifiedUser(server, email);
    const { page } = await newPage(browser, mobileViewport);
    allowConsoleErrors(page, refused);
    await logIn(page, server.baseUrl, email);
    await page.goto(`${server.baseUrl}/artists/new`);
    await fillForm(page, { Name: 'The Slow Uploaders', Description: 'We take our time.' });
    const image = page.getByRole('group', { name: 'Profile image' });
    await upload(image, { name: 'slow-face.png', mimeType: 'image/png', buffer: await png() });
    await removeUploads(['slow-face.png']);

    await page.getByRole('button', { name: 'Create artist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unable to create artist' });
    await dialog.getByText(/^The profile image is no longer available/).waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await image.getByText(fieldMessage).waitFor();
    expect(await image.getByRole('img', { name: 'Profile image preview' }).count()).toBe(0);

    await upload(image, { name: 'slow-face-again.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('button', { name: 'Create artist' }).click();
    await page.waitForURL('**/artists/user');
    await page.locator('main').getByText('The Slow Uploaders').first().waitFor();
  });
});
