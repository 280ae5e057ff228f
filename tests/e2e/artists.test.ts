import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { artistSchema } from '../../shared/answers/artists';
import { mobileViewport } from '../fixtures/browser';
import { fillForm, logIn, newPage, slowUplink, useAppAndBrowser } from '../fixtures/e2e-app';
import { createArtist } from '../fixtures/fundraisers';
import { seriousViolations } from '../fixtures/axe';
import { png } from '../fixtures/images';
import { widthInContainer } from '../fixtures/layout';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

/** A photo-like PNG (noise does not compress), a couple of megabytes. */
const photo = () =>
  sharp({
    create: {
      width: 900,
      height: 900,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();

describe('artists in Chromium', () => {
  it('creates an artist with an image (progress shown), edits, publishes, finds it in search and opens it by slug', async () => {
    const email = 'artist-owner@example.org';
    await verifiedUser(server, email);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, email);

    await page.goto(`${server.baseUrl}/artists/new`);
    await expect.poll(() => page.title()).toBe('Create a new artist | Soundcause');
    await fillForm(page, {
      Name: 'Jazz Collective of Portland',
      Description: 'Twelve players, one stage.\nEvery Friday since 2011.',
      Website: 'https://jazz.example.org',
    });
    // A slow uplink, so the upload takes a few seconds and its progress can be seen.
    const restoreUplink = await slowUplink(page, 400 * 1024);
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'band.png', mimeType: 'image/png', buffer: await photo() });
    await page.getByText(/Uploading band\.png: \d+%/).waitFor();
    expect(await page.locator('progress').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Create artist' }).isDisabled()).toBe(true);
    await page.locator('progress').waitFor({ state: 'detached', timeout: 30_000 });
    await restoreUplink();
    await page.getByRole('button', { name: 'Create artist' }).click();

    await page.waitForURL('**/artists/user');
    const tile = page.locator('main').getByText('Jazz Collective of Portland').first();
    await tile.waitFor();
    await page.getByText('DRAFT').first().waitFor();

    await page.getByRole('link', { name: /Edit/ }).first().click();
    await page.waitForURL(/\/artists\/user\/\d+\/edit$/);
    await page.getByLabel('Description').fill('Twelve players, one stage. Every Friday.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/artists/jazz-collective-of-portland');
    await page.getByText('Twelve players, one stage. Every Friday.').waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect
      .poll(
        async () =>
          artistSchema.parse((await server.client().get('/api/artists/slug/jazz-collective-of-portland')).json).status,
      )
      .toBe('PUBLISHED');

    await page.goto(`${server.baseUrl}/browse/artists`);
    await page.getByRole('search', { name: 'Search artists' }).getByLabel('Search term').fill('jazz coll');
    await page.getByRole('search', { name: 'Search artists' }).getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/artists?searchTerm=jazz+coll');
    await page.getByRole('heading', { name: 'Search results' }).waitFor();
    await page
      .locator('main')
      .getByRole('link', { name: /Jazz Collective of Portland/ })
      .click();
    await page.waitForURL('**/artists/jazz-collective-of-portland');
    await page.getByRole('heading', { name: 'Jazz Collective of Portland' }).waitFor();
    const image = page.locator('main img').first();
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  it('lets the user cancel an upload without an error, and refuses a file of the wrong type', async () => {
    await verifiedUser(server, 'canceller@example.org');
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, 'canceller@example.org');
    await page.goto(`${server.baseUrl}/artists/new`);
    // The empty image field shows a picture placeholder, not the music note of an album.
    const field = page.getByRole('group', { name: 'Profile image' });
    expect(await field.locator('[data-placeholder]').getAttribute('data-placeholder')).toBe('image');
    await page.getByRole('button', { name: 'Create artist' }).click();
    await field.getByText('Profile image is required.').waitFor();

    const restoreUplink = await slowUplink(page, 100 * 1024);
    const fileInput = page.locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'slow.png', mimeType: 'image/png', buffer: await photo() });
    await page.getByText(/Uploading slow\.png: \d+%/).waitFor();
    // A file on its way is not missing: no 'is required' while it uploads.
    expect(await field.getByText('Profile image is required.').count()).toBe(0);
    await field.getByRole('button', { name: 'Cancel' }).click();
    await field.locator('progress').waitFor({ state: 'detached' });
    expect(await page.getByText('Unable to upload file! Something went wrong.').count()).toBe(0);
    await field.getByText('Profile image is required.').waitFor();
    expect(await page.getByRole('button', { name: 'Create artist' }).isDisabled()).toBe(false);
    await restoreUplink();

    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText('File type must be one of the following: jpeg, jpg, png').waitFor();
  });

  it('keeps another user from editing the artist', async () => {
    const owner = await verifiedUser(server, 'keeper@example.org');
    const form = new FormData();
    form.append('imageFile', new Blob([new Uint8Array(await photo())], { type: 'image/png' }), 'keeper.png');
    const { id: profileImage } = (await owner.post('/api/uploads/image', { multipart: form })).json as { id: string };
    const created = await owner.post('/api/artists/new', {
      json: { name: 'The Keepers', description: 'Guarded songs.', profileImage },
    });
    const artist = artistSchema.parse(created.json);
    await owner.request('PATCH', `/api/artists/${artist.id}/publish`);

    await verifiedUser(server, 'not-the-owner@example.org');
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, 'not-the-owner@example.org');
    await page.goto(`${server.baseUrl}/artists/user/${artist.id}/edit`);
    await page.getByRole('heading', { name: 'Artist not found' }).waitFor();
    await page.goto(`${server.baseUrl}/artists/${artist.id}`);
    await page.waitForURL('**/artists/the-keepers');
    await page.getByRole('heading', { name: 'The Keepers' }).waitFor();
    expect(await page.getByRole('link', { name: /Edit/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Admin menu' }).count()).toBe(0);
  });

  it('takes link rows on a phone, refuses half a row at its empty field, and shows each label as a safe link', async () => {
    const email = 'linked-artist@example.org';
    await verifiedUser(server, email);
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, email);
    await page.goto(`${server.baseUrl}/artists/new`);
    await fillForm(page, { Name: 'The Linked Ones', Description: 'Songs with links.' });
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'linked.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('group', { name: 'Profile image' }).getByText('linked.png').waitFor();

    const row = (n: number) => page.getByRole('group', { name: `Link ${n}`, exact: true });
    await row(1).getByLabel('Label').fill('Bandcamp');
    await row(1).getByLabel('URL').fill('bandcamp.example.org/linked');
    await row(2).getByLabel('URL').fill('https://shop.example.org');
    await row(3).getByLabel('Label').fill('Videos');
    await page.getByRole('button', { name: 'Create artist' }).click();
    await row(1).getByText('URL must start with either http:// or https://').waitFor();
    await row(2).getByText('Please enter a label for this link.').waitFor();
    await row(3).getByText('Please enter the URL for this link.').waitFor();
    expect(await row(1).getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    // Phone layout: each row's label above its URL, nothing wider than the screen, no serious axe finding.
    const label = await row(1).getByLabel('Label').boundingBox();
    const url = await row(1).getByLabel('URL').boundingBox();
    expect(url!.y).toBeGreaterThan(label!.y + label!.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);

    await row(1).getByLabel('URL').fill('https://bandcamp.example.org/linked');
    await row(2).getByLabel('Label').fill('Shop');
    await row(3).getByLabel('Label').fill('');
    await page.getByRole('button', { name: 'Create artist' }).click();
    await page.waitForURL('**/artists/user');

    await page.goto(`${server.baseUrl}/artists/the-linked-ones`);
    const links = page.getByRole('list', { name: 'Links' });
    const bandcamp = links.getByRole('link', { name: 'Bandcamp (opens in a new tab)' });
    expect(await bandcamp.getAttribute('href')).toBe('https://bandcamp.example.org/linked');
    expect(await bandcamp.getAttribute('rel')).toBe('noopener noreferrer ugc');
    expect(await bandcamp.getAttribute('target')).toBe('_blank');
    expect(await links.getByRole('link', { name: /^Shop/ }).getAttribute('href')).toBe('https://shop.example.org');
    // The label is shown, not the address.
    expect(await page.locator('main').getByText('bandcamp.example.org').count()).toBe(0);

    await page.goto(`${server.baseUrl}/artists/user`);
    await page.getByRole('link', { name: /Edit/ }).first().click();
    await page.waitForURL(/\/artists\/user\/\d+\/edit$/);
    expect(await row(1).getByLabel('Label').inputValue()).toBe('Bandcamp');
    expect(await row(2).getByLabel('URL').inputValue()).toBe('https://shop.example.org');
  });

  it('shows the profile picture across the whole width of a phone (issue 9)', async () => {
    const owner = await verifiedUser(server, 'wide-picture@example.org');
    const artist = await createArtist(owner, { name: 'Wide Angle' });
    await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/artists/${artist.id}`);
    await page.getByRole('heading', { level: 1, name: 'Wide Angle' }).waitFor();
    const { width, container } = await widthInContainer(page.locator('main .artist-profile-picture'));
    // 390 px less the page's padding: the picture fills it (it was a fixed 320 px before).
    expect(container).toBeGreaterThan(320);
    expect(width).toBeCloseTo(container, 0);
  });
});
