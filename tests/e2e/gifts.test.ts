import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { siteCalendarDate } from '../../shared/site-dates';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { fillForm, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { musicPlayer, playingSound } from '../fixtures/player';
import { strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

// Issue 26 in a phone's browser: a guest gives an album with a message and the card fee covered,
// the recipient opens the gift email's link and plays the album, and the giver signs up and
// downloads their year-end statement from their giving history.

let server: TestServer;
let browser: Browser;
let album: Fundraiser;
const ALBUM = 'Lanterns on the Water';

useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, 'gift-journey-band@example.org');
  album = await createFundraiser(owner, {
    details: { name: ALBUM },
    uploads: await uploadListenableMusic(owner, [12]),
    publish: true,
  });
  await server.jobs.drain();
});

/** A card expiry a year ahead, as MM/YY. */
const nextYear = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

/** The link in the newest email to `email`, on this test's server. */
function linkIn(email: string, pattern: RegExp): string {
  const message = server.outbox
    .messages(email)
    .at(-1)!
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  return message.match(pattern)![0].replace(/^https?:\/\/[^/]+/, server.baseUrl);
}

/** With SCREENSHOTS=<folder>, a full-page picture for a person to look at in review. */
async function lookAt(page: Page, name: string) {
  const folder = process.env.SCREENSHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(mobileViewport.width);
}

describe('giving an album', () => {
  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`a guest gives it with a message and the fee covered; the recipient plays it; the giver gets a statement (${viewport.width} px)`, async () => {
      const giver = `gift-giver-${viewport.width}@example.org`;
      const recipient = `gift-recipient-${viewport.width}@example.org`;
      const phone = viewport.width === mobileViewport.width;
      const { page } = await newPage(browser, viewport);

      // The donate page: $25.00, no tip, the fee covered, a gift.
      await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate`);
      await fillForm(page, { Name: 'Ada Lovelace', Email: giver, Donation: '25' });
      await page.getByRole('button', { name: 'No tip' }).click();
      // 2.2 % + 30¢ of $25.87 is 87¢: the charity keeps all $25.00.
      await page.getByLabel('Cover the card fee so the charity gets all $25.00 (+$0.87)').check();
      await page.getByLabel('This is a gift').check();
      await fillForm(page, { 'Recipient name': 'Grace Hopper', 'Recipient email': recipient });
      await page.getByLabel('Message (optional)').fill('Happy birthday, Grace!\nPlay it loud.');
      await page.getByText('464 of 500 characters left').waitFor();
      const summary = page.getByRole('complementary', { name: 'Summary' });
      expect(await summary.innerText()).toMatch(
        /Donation\s+\$25\.00\s+Card fee covered\s+\$0\.87\s+Tip\s+\$0\.00\s+Total\s+\$25\.87/,
      );
      if (phone) await fitsThePhone(page);
      expect(await seriousViolations(page)).toEqual([]);
      await lookAt(page, `gift-form-${viewport.width}`);

      // Giving it to oneself is refused on the spot.
      await page.getByLabel('Recipient email').fill(giver.toUpperCase());
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('A gift goes to someone else.', { exact: false }).waitFor();
      await page.getByLabel('Recipient email').fill(recipient);

      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Gift for Grace Hopper').waitFor();
      await fillForm(page, { 'Card number': '4242 4242 4242 4242', Expiry: nextYear, CVC: '123' });
      await page.getByRole('button', { name: 'Pay $25.87' }).click();
      await page.waitForURL(`**/projects/${album.urlSlug}/donate/success?payment_intent=*`);

      // The success page: on its way, the cover in the summary, no album for the giver.
      await page.getByText('Your gift is on its way to Grace Hopper').waitFor();
      expect(await page.locator('.donation-success-summary').innerText()).toMatch(
        /Gift for\s+Grace Hopper[\s\S]*Donation\s+\$25\.00\s+Card fee covered\s+\$0\.87[\s\S]*Tax-deductible part\s+\$20\.87/,
      );
      expect(await page.getByRole('button', { name: 'Listen now' }).count()).toBe(0);
      if (phone) await fitsThePhone(page);
      expect(await seriousViolations(page)).toEqual([]);

      // The recipient opens the gift email's link: the message, and the album plays at once.
      await server.jobs.drain();
      const { page: recipientPage } = await newPage(browser, viewport);
      await recipientPage.goto(linkIn(recipient, /https?:\/\/[^\s"]+\/purchases\/[A-Za-z0-9_-]{43}/));
      await recipientPage.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
      await recipientPage.getByText('A gift from Ada Lovelace').waitFor();
      await recipientPage.getByText('Happy birthday, Grace!').waitFor();
      await recipientPage.getByRole('button', { name: 'Play Track 1' }).click();
      await expect
        .poll(() => musicPlayer(recipientPage).locator('.player-title').textContent(), { timeout: 10_000 })
        .toBe('Track 1');
      const start = (await playingSound(recipientPage))?.seek ?? 0;
      await expect
        .poll(async () => (await playingSound(recipientPage))?.seek ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(start + 1);
      if (phone) await fitsThePhone(recipientPage);
      expect(await seriousViolations(recipientPage)).toEqual([]);
      await lookAt(recipientPage, `gift-link-${viewport.width}`);

      // The giver signs up with their address, and downloads this year's statement.
      await verifiedUser(server, giver);
      await page.goto(`${server.baseUrl}/login`);
      await fillForm(page, { Email: giver, Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await page.goto(`${server.baseUrl}/account/giving`);
      await page.getByRole('heading', { level: 1, name: 'Giving history' }).waitFor();
      await page.getByText('Grace Hopper', { exact: false }).first().waitFor();
      if (phone) await fitsThePhone(page);
      expect(await seriousViolations(page)).toEqual([]);
      await lookAt(page, `giving-${viewport.width}`);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: /Download statement/ }).click();
      const saved = await download;
      // The site's year: on New Year's morning in UTC it is still last year in Los Angeles.
      const siteYear = siteCalendarDate(Date.now(), server.deps.config.timeZone).slice(0, 4);
      expect(saved.suggestedFilename()).toBe(`giving-statement-${siteYear}.pdf`);
    });
  }
});
