import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artistSchema } from '../../shared/answers/artists';
import { fundraiserListSchema, fundraiserSchema } from '../../shared/answers/fundraisers';
import { wav } from '../fixtures/audio';
import { seriousViolations } from '../fixtures/axe';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { imageForm, png } from '../fixtures/images';
import { type TestServer, strongPassword, verifiedUser } from '../fixtures/test-server';
import { throughCharityStep } from '../fixtures/wizard';

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

/** Uploads through a field's hidden file input and waits until the upload is done. */
async function upload(field: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  await field.locator('input[type=file]').setInputFiles(file);
  await field.getByRole('button', { name: /^(Choose another image|Replace file)$/ }).waitFor({ timeout: 20_000 });
}

/** The nonprofit lookup's answer for an EIN nobody has, which the charity step explains. */
const unknownEin = /status of 404 .*\/api\/nonprofits\/(99-)?9999999\d*\)$/;

const track = (name: string, frequency: number) => ({ name, mimeType: 'audio/wav', buffer: wav({ frequency }) });

/** Nothing sticks out sideways: the page fits a phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('fundraiser creation wizard in Chromium', () => {
  it('walks a guest through sign-up and email verification to the artist step, at phone width', async () => {
    const { page } = await newPage(browser, { width: 390, height: 844 });
    const email = 'wizard-guest@example.org';

    await page.goto(`${server.baseUrl}/fundraisers/new?email=${encodeURIComponent(email)}`);
    await page.waitForURL('**/fundraisers/new/signup?email=*');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - The basics | Soundcause');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await page.getByText('Step 1 of 6').waitFor();
    await expectNoSidewaysScroll(page);

    await fillForm(page, {
      'First name': 'Nina',
      'Last name': 'Simone',
      Password: strongPassword,
      'Confirm password': 'Different!1',
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText("Passwords don't match!").waitFor();
    await page.getByLabel('Confirm password').fill(strongPassword);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL('**/fundraisers/new/verify-email');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - Verify email address | Soundcause');
    await page.getByText('You need it to create artists, fundraisers and more.').waitFor();
    await page.getByLabel('Verification code').fill(server.outbox.latestCode(email));
    await page.getByRole('button', { name: 'Verify email' }).click();

    await page.waitForURL('**/fundraisers/new/artist');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - About you or your band | Soundcause');
    // With no artists yet the create form is all there is.
    await page.getByRole('heading', { name: 'Create a new artist' }).waitFor();
    await page.getByText('Step 3 of 6').waitFor();
    // Sign-up and verification are done and cannot be visited again.
    const steps = page.getByRole('navigation', { name: 'Steps' });
    expect(await steps.getByRole('link').count()).toBe(0);
    await page.goto(`${server.baseUrl}/fundraisers/new/signup`);
    await page.waitForURL('**/fundraisers/new/artist');
    await expectNoSidewaysScroll(page);
  });

  it('creates an artist, a draft and its music, reorders a track by keyboard, edits, publishes, finds it by genre and EIN, and keeps others out', async () => {
    const email = 'wizard-artist@example.org';
    const api = await verifiedUser(server, email);
    const { page } = await newPage(browser);
    allowConsoleErrors(page, unknownEin);
    await logIn(page, server.baseUrl, email);

    await page.goto(`${server.baseUrl}/fundraisers/new/nowhere`);
    await page.waitForURL('**/fundraisers/new/artist');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - About you or your band | Soundcause');
    await page.getByText('Step 1 of 4').waitFor();
    // Steps ahead cannot be skipped to.
    await page.goto(`${server.baseUrl}/fundraisers/new/music`);
    await page.waitForURL('**/fundraisers/new/artist');

    // Artist, created inside the wizard.
    await page.getByRole('heading', { name: 'Create a new artist' }).waitFor();
    await fillForm(page, { 'Artist name': 'The Wizard Quartet', 'About the artist': 'Four players, one cause.' });
    await upload(page.getByRole('group', { name: 'Profile image' }), {
      name: 'quartet.png',
      mimeType: 'image/png',
      buffer: await png(),
    });
    await page.getByRole('button', { name: 'Create artist and continue' }).click();

    // Charity: the minimum must be whole dollars, and a nonprofit is required.
    await page.waitForURL('**/fundraisers/new/charity');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - Choose a charity | Soundcause');
    await page.getByText('Must be $2 or more').waitFor();
    await fillForm(page, { 'Fundraising goal': '5000', 'Donation minimum': '2.50' });
    // Enter submits from the field (a click would first blur it, showing its error, which moves the button).
    await page.getByLabel('Donation minimum').press('Enter');
    await page.getByText('Donation minimum must be a whole dollar amount (no cents)').waitFor();
    await page.getByText('Nonprofit is required').waitFor();
    await page.getByLabel('Donation minimum').fill('10');
    await page.getByLabel('Search by EIN or name').fill('99-9999999');
    await page.getByText('No charity found with EIN 99-9999999').waitFor();
    await page.getByLabel('Search by EIN or name').fill('53-0196605');
    await page.getByRole('button', { name: /American National Red Cross/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /American National Red Cross/ }).click();
    await page.getByText('EIN 53-0196605').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // The draft exists now.
    await page.waitForURL('**/fundraisers/new/details');
    const drafts = fundraiserListSchema.parse((await api.get('/api/fundraisers/user')).json);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ status: 'DRAFT', donationMinimumCents: 1000, fundraisingGoalCents: 500_000 });

    // Details: every required field says so.
    await expect.poll(() => page.title()).toBe('Create a fundraiser - Set up your fundraiser | Soundcause');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Name is required.').waitFor();
    await page.getByText('Description is required.').waitFor();
    await page.getByText('Please select one of the options.').waitFor();
    await page.getByText('Maximum 75 characters').waitFor();
    await fillForm(page, { Name: 'Songs for Shelter', Description: 'Every song raises money for disaster relief.' });
    await page.getByLabel('Primary genre').selectOption('Jazz');
    await page.getByLabel('YouTube code').fill('dQw4w9WgXcQ');
    await page.getByRole('button', { name: 'Next' }).click();

    // Music: cover, preview and three tracks.
    await page.waitForURL('**/fundraisers/new/music');
    await expect.poll(() => page.title()).toBe('Create a fundraiser - Add your music tracks | Soundcause');
    // Earlier steps can be visited again from the step list.
    await page
      .getByRole('navigation', { name: 'Steps' })
      .getByRole('link', { name: /Choose a charity/ })
      .waitFor();
    await upload(page.getByRole('group', { name: 'Album cover' }), {
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await png(600, 600),
    });
    await page.getByLabel('Preview track name').fill('Preview');
    await upload(page.getByRole('group', { name: 'Preview track file' }), track('preview.wav', 330));
    await page.getByRole('button', { name: '+ Add track' }).click();
    await page.getByRole('button', { name: '+ Add track' }).click();
    const names = ['First light', 'Second wind', 'Third time'];
    for (const [index, name] of names.entries()) {
      const row = page.getByRole('group', { name: `Track ${index + 1}`, exact: true });
      await row.getByLabel('Track name').fill(name);
      await upload(row.getByRole('group', { name: 'Track file' }), track(`track-${index + 1}.wav`, 440 + index * 110));
    }

    // Keyboard reordering: pick up track 1, move it down one place, drop it.
    // Each move waits for what a screen reader hears (the sensor listens from the next tick on).
    await page.getByRole('button', { name: 'Reorder track 1, First light' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Picked up Track 1, First light.').waitFor({ state: 'attached' });
    // dnd-kit's keyboard sensor starts listening for arrows in a zero-delay timer queued on pickup;
    // a timer queued now runs after it, so the arrow below is never pressed too early.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.keyboard.press('ArrowDown');
    await page.getByText('Track 1, First light is over position 2 of 3.').waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await page.getByText('Track 1, First light dropped at position 2 of 3.').waitFor({ state: 'attached' });
    await expect
      .poll(() => page.getByRole('group', { name: 'Track 1', exact: true }).getByLabel('Track name').inputValue())
      .toBe('Second wind');
    expect(await page.getByRole('group', { name: 'Track 2', exact: true }).getByLabel('Track name').inputValue()).toBe(
      'First light',
    );

    // The filled-in track list still fits a phone.
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Create fundraiser' }).click();
    await page.waitForURL('**/projects/songs-for-shelter', { timeout: 20_000 });
    const created = fundraiserSchema.parse((await api.get(`/api/fundraisers/${drafts[0]!.id}`)).json);
    expect(created.tracksList.map((item) => item.name)).toEqual(['Second wind', 'First light', 'Third time']);
    expect(created).toMatchObject({ name: 'Songs for Shelter', genre: 'Jazz', previewTrackName: 'Preview' });
    // The wizard starts afresh after a fundraiser is created: it clears itself once it has been
    // left (its route unmounts a moment after the URL changes).
    const storedDraftId = async () => {
      const stored = await page.evaluate(() => sessionStorage.getItem('soundcause-fundraiser-wizard'));
      return stored ? (JSON.parse(stored) as { state: { draftId: number | null } }).state.draftId : null;
    };
    await expect.poll(storedDraftId).toBeNull();

    // Edit the draft through the edit page.
    await page.goto(`${server.baseUrl}/fundraisers/user/${created.id}/edit`);
    await page.getByRole('heading', { name: 'Edit fundraiser' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Songs for Shelter');
    expect(await page.getByLabel('Donation minimum').inputValue()).toBe('10');
    await page.getByText('American National Red Cross').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Name', { exact: true }).fill('More Songs for Shelter');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/fundraisers/user/${created.id}`);
    const edited = fundraiserSchema.parse((await api.get(`/api/fundraisers/${created.id}`)).json);
    expect(edited.name).toBe('More Songs for Shelter');
    expect(edited.tracksList.map((item) => item.name)).toEqual(['Second wind', 'First light', 'Third time']);

    // Publish it, and its draft artist, through the two-step dialog on the fundraiser page.
    await page.getByRole('link', { name: 'View fundraiser' }).click();
    await page.waitForURL('**/projects/more-songs-for-shelter');
    await page.getByText('status: Draft').waitFor();
    await page.locator('main').getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('dialog', { name: 'Publish this fundraiser?' }).getByRole('button', { name: 'Next' }).click();
    await page
      .getByRole('dialog', { name: 'Publish the artist too?' })
      .getByRole('button', { name: 'Yes, publish both!' })
      .click();
    await page.getByText('status: Draft').waitFor({ state: 'detached' });
    expect((await api.get(`/api/fundraisers/${created.id}`)).json).toMatchObject({
      status: 'PUBLISHED',
      artist: { status: 'PUBLISHED' },
    });

    // Anyone finds it in Search fundraisers, by genre and by the charity's EIN.
    await page.goto(`${server.baseUrl}/browse/projects`);
    const search = page.getByRole('search', { name: 'Search fundraisers' });
    await search.getByLabel('Genre').selectOption('Jazz');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?genre=Jazz');
    await page.locator('main').getByRole('heading', { name: 'More Songs for Shelter' }).waitFor();
    await search.getByLabel('Genre').selectOption('Folk');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?genre=Folk');
    await page.locator('main').getByText('No results found! Please try a different query.').waitFor();
    await search.getByLabel('Genre').selectOption('');
    await search.getByLabel('Charity EIN').fill('530196605');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?charityEin=530196605');
    await page.locator('main').getByRole('heading', { name: 'More Songs for Shelter' }).waitFor();

    // The owner sees it, published, among their fundraisers and on its manage page.
    await page.goto(`${server.baseUrl}/fundraisers/user`);
    await page
      .locator('main')
      .getByRole('link', { name: /More Songs for Shelter/ })
      .click();
    await page.waitForURL(`**/fundraisers/user/${created.id}`);
    await page.locator('main').getByRole('heading', { name: 'More Songs for Shelter' }).waitFor();
    await page.locator('main').getByText('Published', { exact: true }).waitFor();

    // Another user can neither manage nor edit it, in the browser or through the API.
    const otherEmail = 'wizard-other@example.org';
    const other = await verifiedUser(server, otherEmail);
    const { page: otherPage } = await newPage(browser);
    allowConsoleErrors(otherPage, new RegExp(`status of 404 .*/api/fundraisers/${created.id}\\)$`));
    await logIn(otherPage, server.baseUrl, otherEmail);
    for (const path of [`/fundraisers/user/${created.id}/edit`, `/fundraisers/user/${created.id}`]) {
      await otherPage.goto(`${server.baseUrl}${path}`);
      await otherPage.getByRole('heading', { name: 'Fundraiser not found' }).waitFor();
      expect(await otherPage.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    }
    const refused = await other.patch(`/api/fundraisers/${created.id}/update`, { json: { name: 'Mine now' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(fundraiserSchema.parse((await api.get(`/api/fundraisers/${created.id}`)).json).name).toBe(
      'More Songs for Shelter',
    );
  });
  it('keeps the music across Back, step links and a reload, recovers when its draft is deleted elsewhere, and starts over', async () => {
    const email = 'wizard-recover@example.org';
    const api = await verifiedUser(server, email);
    const profile = await api.post('/api/uploads/image', {
      multipart: imageForm(await png(), 'face.png', 'image/png'),
    });
    const created = await api.post('/api/artists/new', {
      json: { name: 'The Comebacks', description: 'Back again.', profileImage: (profile.json as { id: string }).id },
    });
    const artist = artistSchema.parse(created.json);
    const { page } = await newPage(browser);
    allowConsoleErrors(page, unknownEin);
    await logIn(page, server.baseUrl, email);

    const drafts = async () => fundraiserListSchema.parse((await api.get('/api/fundraisers/user')).json);
    const stored = () => page.evaluate(() => sessionStorage.getItem('soundcause-fundraiser-wizard') ?? '');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const steps = page.getByRole('navigation', { name: 'Steps' });
    const notice = page.getByRole('status').filter({ hasText: 'Your draft is no longer available' });

    const throughCharity = () => throughCharityStep(page, /The Comebacks/);

    // Parts swapped in place take the focus with them.
    await page.goto(`${server.baseUrl}/fundraisers/new`);
    await page.waitForURL('**/fundraisers/new/artist');
    await page.getByRole('button', { name: 'create a new artist' }).click();
    await expect.poll(focused).toBe('Create a new artist');
    await page.getByRole('button', { name: '← Choose existing artist' }).click();
    await expect.poll(focused).toBe('Choose your artist');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/fundraisers/new/charity');
    // An unknown EIN is named as typed.
    await page.getByLabel('Search by EIN or name').fill('999999999');
    await page.getByText('No charity found with EIN 999999999').waitFor();
    await page.getByLabel('Search by EIN or name').fill('53-0196605');
    await page.getByRole('button', { name: /American National Red Cross/ }).click();
    await expect.poll(focused).toBe('Choose a different charity');
    await page.getByRole('button', { name: 'Choose a different charity' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.getByRole('button', { name: /^Keep / }).click();
    await expect.poll(focused).toBe('Choose a different charity');
    await fillForm(page, { 'Fundraising goal': '800', 'Donation minimum': '5' });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/fundraisers/new/details');
    await fillForm(page, { Name: 'Back Again', Description: 'Songs that keep coming back.' });
    await page.getByLabel('Primary genre').selectOption('Folk');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/fundraisers/new/music');
    const [draft] = await drafts();
    expect(draft).toMatchObject({ status: 'DRAFT', name: 'Back Again', artist: { id: artist.id } });

    // Music typed and uploaded, then the step is left three ways.
    await upload(page.getByRole('group', { name: 'Album cover' }), {
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await png(400, 400),
    });
    await page.getByLabel('Preview track name').fill('Teaser');
    await upload(page.getByRole('group', { name: 'Preview track file' }), track('teaser.wav', 300));
    const firstTrack = page.getByRole('group', { name: 'Track 1', exact: true });
    await firstTrack.getByLabel('Track name').fill('Only song');
    await upload(firstTrack.getByRole('group', { name: 'Track file' }), track('only-song.wav', 500));

    async function expectMusicKept() {
      await page.waitForURL('**/fundraisers/new/music');
      await page.getByRole('img', { name: 'Album cover preview' }).waitFor();
      expect(await page.getByLabel('Preview track name').inputValue()).toBe('Teaser');
      await page.getByRole('group', { name: 'Preview track file' }).getByText('teaser.wav').waitFor();
      expect(await firstTrack.getByLabel('Track name').inputValue()).toBe('Only song');
      await firstTrack.getByRole('group', { name: 'Track file' }).getByText('only-song.wav').waitFor();
    }

    await page.getByRole('link', { name: '← Back' }).click();
    await page.waitForURL('**/fundraisers/new/details');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Back Again');
    await page.getByRole('button', { name: 'Next' }).click();
    await expectMusicKept();
    // At phone width the step links keep their names.
    await page.setViewportSize({ width: 390, height: 844 });
    await steps.getByRole('link', { name: /Choose a charity/ }).click();
    await page.waitForURL('**/fundraisers/new/charity');
    await steps.getByRole('link', { name: /Add your music tracks/ }).click();
    await expectMusicKept();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expectMusicKept();

    // The draft is deleted elsewhere: submitting the music starts the wizard again, saying why.
    expect((await api.delete(`/api/fundraisers/${draft!.id}`)).status).toBe(200);
    allowConsoleErrors(page, /status of 404 .*\/api\/fundraisers\/(music|\d+)\)$/);
    await page.getByRole('button', { name: 'Create fundraiser' }).click();
    await page.waitForURL('**/fundraisers/new/artist');
    await notice.waitFor();
    await expect.poll(focused).toContain('Your draft is no longer available');
    expect(await stored()).not.toContain(String(draft!.id));
    expect(await stored()).not.toContain('Teaser');
    expect(await drafts()).toEqual([]);

    // A stored draft deleted while the wizard was away is dropped on arrival.
    await throughCharity();
    const [second] = await drafts();
    expect(second!.id).not.toBe(draft!.id);
    expect(await notice.count()).toBe(0);
    expect((await api.delete(`/api/fundraisers/${second!.id}`)).status).toBe(200);
    await page.goto(`${server.baseUrl}/fundraisers/new/details`);
    await page.waitForURL('**/fundraisers/new/artist');
    await notice.waitFor();
    expect(await stored()).not.toContain(String(second!.id));

    // 'Start over' forgets the draft the wizard is on (the draft itself stays among the user's).
    await throughCharity();
    const [third] = await drafts();
    await page.getByRole('button', { name: 'Start over' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start over?' });
    await dialog.getByRole('button', { name: 'Start over' }).click();
    await page.waitForURL('**/fundraisers/new/artist');
    await expect.poll(focused).toContain('About you or your band');
    expect(await stored()).not.toContain(String(third!.id));
    expect(await page.getByRole('button', { name: 'Start over' }).count()).toBe(0);
    expect((await drafts()).map((item) => item.id)).toEqual([third!.id]);
  });
});
