import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { wav } from '../fixtures/audio';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { payWithTestCard, startDonation } from '../fixtures/donations';
import { futureExpiry } from '../fixtures/test-cards';
import { fillForm, logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadImage, uploadTrack } from '../fixtures/fundraisers';
import { type TestServer, strongPassword, verifiedUser } from '../fixtures/test-server';
import { TEST_CARDS } from '../../shared/donation-rules';
import type { Fundraiser } from '../../shared/answers/fundraisers';

// Donating in Chromium with the built-in test provider (issue 10): a guest gives with a tip preset,
// reads the success page, downloads from the receipt's link, signs up with the same email and finds
// the album in Your music; a declined card says so and can try again.

let server: TestServer;
let browser: Browser;
let album: Fundraiser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, 'donations-owner@example.org');
  album = await createFundraiser(owner, {
    details: { name: 'Songs for the Shelter' },
    uploads: {
      cover: await uploadImage(owner),
      preview: await uploadTrack(owner, wav({ seconds: 2 }), 'preview.wav'),
      tracks: [await uploadTrack(owner, wav({ seconds: 6, frequency: 440 }), 'one.wav')],
    },
    publish: true,
  });
  await server.jobs.drain();
});

const summaryOf = (page: Page) => page.getByRole('complementary', { name: 'Summary' });

async function fillDonation(page: Page, email: string, donation: string) {
  await fillForm(page, { Name: 'June Carter', Email: email, Donation: donation });
}

async function payWith(page: Page, card: string) {
  await fillForm(page, { 'Card number': card, Expiry: futureExpiry(), CVC: '123' });
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('donating in Chromium', () => {
  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`lets a guest donate with a tip, then download and stream the album (${viewport.width} px)`, async () => {
      const email = `guest-${viewport.width}@example.org`;
      const { page } = await newPage(browser, viewport);
      await page.goto(`${server.baseUrl}/projects/${album.urlSlug}`);
      await page.locator('main').getByRole('link', { name: 'Donate' }).click();
      await page.waitForURL(`**/projects/${album.urlSlug}/donate`);
      await expect.poll(() => page.title()).toBe('Donate to Songs for the Shelter | Soundcause');
      await page.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
      await page.getByText('Must be $5.00 or more').waitFor();

      // Presets wait for a donation; Next asks for what is missing.
      expect(await page.getByRole('button', { name: '20%' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Name is required.').waitFor();
      await page.getByText('Please choose a tip amount (can be zero)').waitFor();
      await fillDonation(page, email, '4');
      await page.getByRole('button', { name: 'No tip' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Donation must be at least $5.00').waitFor();

      await page.getByLabel('Donation', { exact: true }).fill('25');
      await page.getByRole('button', { name: '20%' }).click();
      expect(await summaryOf(page).innerText()).toMatch(/Donation\s+\$25\.00\s+Tip\s+\$5\.00\s+Total\s+\$30\.00/);
      // Typing a donation clears the preset.
      await page.getByLabel('Donation', { exact: true }).fill('30');
      expect(await page.getByRole('button', { name: '20%' }).getAttribute('aria-pressed')).toBe('false');
      await page.getByLabel('Donation', { exact: true }).fill('25');
      await page.getByRole('button', { name: '20%' }).click();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByText('Test mode — no real money moves.').waitFor();
      expect(await summaryOf(page).innerText()).toMatch(/Total\s+\$30\.00/);
      expect(await seriousViolations(page)).toEqual([]);
      if (viewport.width === mobileViewport.width) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }
      await page.screenshot({
        path: path.join(os.tmpdir(), `soundcause-donate-${viewport.width}.png`),
        fullPage: true,
      });
      await payWith(page, '4242 4242 4242 4242');

      await page.waitForURL(`**/projects/${album.urlSlug}/donate/success?payment_intent=*`);
      await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
      const summary = page.locator('.donation-success-summary');
      await summary.waitFor();
      expect(await summary.innerText()).toMatch(
        /Fundraiser\s+Songs for the Shelter[\s\S]*Donation\s+\$25\.00\s+Tip\s+\$5\.00\s+Tax-deductible part\s+\$20\.00/,
      );
      const signUp = page.getByRole('link', { name: 'Create an account' });
      expect(await signUp.getAttribute('href')).toBe(`/signup?email=${encodeURIComponent(email)}`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(os.tmpdir(), `soundcause-donated-${viewport.width}.png`),
        fullPage: true,
      });

      // The receipt's link downloads the album.
      await server.jobs.drain();
      const receipt = server.outbox
        .messages(email)
        .at(-1)!
        .replace(/=\r?\n/g, '');
      const link = receipt.match(/https?:\/\/[^\s"]+\/purchases\/[A-Za-z0-9_-]{43}/)![0];
      await page.goto(link.replace(/^https?:\/\/[^/]+/, server.baseUrl));
      await page.getByRole('heading', { level: 1, name: 'Songs for the Shelter' }).waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download songs' }).click();
      expect((await download).suggestedFilename()).toBe('Songs for the Shelter.zip');

      // Signing up with that email: the album is in Past donations, and plays.
      await page.goto(`${server.baseUrl}/signup?email=${encodeURIComponent(email)}`);
      await fillForm(page, {
        'First name': 'June',
        'Last name': 'Carter',
        Password: strongPassword,
        'Confirm password': strongPassword,
      });
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL('**/user/verify-email');
      await page.getByLabel('Verification code').fill(server.outbox.latestCode(email));
      await page.getByRole('button', { name: 'Verify email' }).click();
      await page.getByRole('heading', { name: 'Email verified!' }).waitFor();
      await page.goto(`${server.baseUrl}/music/albums/past-donations`);
      await page.locator('main').getByRole('link', { name: 'Songs for the Shelter' }).click();
      await page.getByRole('button', { name: 'Play Track 1' }).click();
      const player = page.getByRole('region', { name: 'Music player' });
      await player.getByText('Track 1').waitFor();
      await player.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    });
  }

  it('fills in a logged-in fan, keeps the form through edit, and comes back to the path it left from', async () => {
    const email = 'member-fan@example.org';
    await verifiedUser(server, email);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, email);
    // By id rather than by slug: the payment returns to this page's path + '/success'.
    await page.goto(`${server.baseUrl}/projects/${album.id}/donate`);
    await page.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Test User');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);

    await page.getByLabel('Donation', { exact: true }).fill('12.34');
    await page.getByRole('button', { name: '10%' }).click();
    expect(await summaryOf(page).innerText()).toMatch(/Tip\s+\$1\.23\s+Total\s+\$13\.57/);
    await page.getByRole('button', { name: '30%' }).click();
    expect(await summaryOf(page).innerText()).toMatch(/Tip\s+\$3\.70\s+Total\s+\$16\.04/);
    await page.getByRole('button', { name: 'Custom' }).click();
    await page.getByLabel('Custom tip').fill('2.5');
    expect(await summaryOf(page).innerText()).toMatch(/Tip\s+\$2\.50\s+Total\s+\$14\.84/);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { level: 2, name: 'Payment' }).waitFor();
    expect(await page.locator('.donation-payer').innerText()).toBe(`Test User · ${email}`);

    // 'edit' goes back to the first step with everything as it was.
    await page.getByRole('button', { name: 'edit' }).click();
    expect(await page.getByLabel('Donation', { exact: true }).inputValue()).toBe('12.34');
    expect(await page.getByRole('button', { name: 'Custom' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Custom tip').inputValue()).toBe('2.5');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Test User');
    await page.getByLabel('Donation', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Next' }).click();
    await payWith(page, TEST_CARDS.succeeds);

    await page.waitForURL(`**/projects/${album.id}/donate/success?payment_intent=*`);
    const summary = page.locator('.donation-success-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toMatch(/Donation\s+\$20\.00\s+Tip\s+\$2\.50/);
    // A member has an account already: Your music, not a sign-up.
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'What next' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to Your music' }).click();
    await page.waitForURL('**/music/albums/past-donations');
    await page.locator('main').getByRole('link', { name: 'Songs for the Shelter' }).waitFor();
  });

  it('says when the summary cannot be had: 4 tries 2, 4 and 6 s apart on 404, at once on anything else', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of (404|500) .*\/api\/transactions\/query/);
    const asked: number[] = [];
    let status = 404;
    await page.route('**/api/transactions/query?*', (route) => {
      asked.push(Date.now());
      return route.fulfill({
        status,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'OTHER', message: status === 404 ? 'Payment not found.' : 'It broke.' }),
      });
    });
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate/success?payment_intent=pi_not_yet`);
    // While the summary is looked for (and after), nobody is thanked for a payment not known yet.
    await page.getByRole('heading', { level: 1, name: 'Your donation' }).waitFor();
    await page.getByRole('alert').getByText('Unable to fetch transaction details.').waitFor({ timeout: 30_000 });
    expect(asked).toHaveLength(4);
    const gaps = asked.slice(1).map((at, i) => at - asked[i]!);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual((i + 1) * 2000 - 50);
      expect(gap).toBeLessThan((i + 1) * 2000 + 2000);
    });
    expect(await page.getByText('Thank you!').count()).toBe(0);

    status = 500;
    asked.length = 0;
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate/success?payment_intent=pi_broken`);
    await page.getByRole('alert').getByText('Unable to display transaction information').waitFor();
    expect(asked).toHaveLength(1);
  });

  it('says a declined card was declined, and takes another', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 402 .*\/api\/test-payments\/confirm\)$/);
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate`);
    await fillDonation(page, 'declined@example.org', '10');
    await page.getByRole('button', { name: 'No tip' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await payWith(page, '4000 0000 0000 0002');
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
  });

  it('coming back from a payment that did not go through says so on the donate page; a paid one goes to the thanks', async () => {
    const unpaid = await startDonation(server, { fundraiserId: album.id, email: 'came-back@example.org' });
    expect((await payWithTestCard(server, unpaid.clientSecret, TEST_CARDS.declined)).status).toBe(402);
    const { page } = await newPage(browser);
    // Stripe's return after a failed bank check: the success path with redirect_status=failed.
    const returned = `payment_intent=${unpaid.paymentIntentId}&payment_intent_client_secret=${unpaid.clientSecret}`;
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate/success?${returned}&redirect_status=failed`);
    await page.waitForURL(`**/projects/${album.urlSlug}/donate?*`);
    await page.getByRole('alert').getByText('Your payment was not successful, please try again.').waitFor();
    await fillDonation(page, 'came-back@example.org', '10');
    await page.getByRole('button', { name: 'No tip' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await payWith(page, TEST_CARDS.succeeds);
    await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();

    const paid = await startDonation(server, { fundraiserId: album.id, email: 'came-back@example.org' });
    expect((await payWithTestCard(server, paid.clientSecret)).status).toBe(200);
    await page.goto(
      `${server.baseUrl}/projects/${album.urlSlug}/donate?payment_intent_client_secret=${paid.clientSecret}`,
    );
    await page.waitForURL(`**/donate/success?payment_intent=${paid.paymentIntentId}`);
    await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
  });

  it('gives to the platform from the support page', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/support`);
    await page.getByRole('link', { name: 'Donate to Soundcause' }).click();
    await page.waitForURL('**/support/donate');
    await fillForm(page, { Name: 'Patron', Email: 'patron@example.org', Amount: '0.50' });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Tip must be at least $1.00').waitFor();
    await page.getByLabel('Amount').fill('20');
    await page.getByRole('button', { name: 'Next' }).click();
    await payWith(page, '4242424242424242');
    await page.waitForURL('**/support/donate/success?payment_intent=*');
    await page.locator('.donation-success-summary').getByText('$20.00').waitFor();
  });
});
