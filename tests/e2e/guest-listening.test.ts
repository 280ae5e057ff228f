import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../server/db/schema';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { donate } from '../fixtures/donations';
import { fillForm, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { musicPlayer, playingSound } from '../fixtures/player';
import { strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

// A guest's album at once (issue 22): a guest donates with the test card, the success page thanks
// them with the summary and the tax-deductible part, and Listen now plays the album in the site's
// player with no account; the receipt's link plays it too and downloads it; logging in leaves the
// guest's tracks behind. A payment that is not known never says "Thank you!", and a receipt link
// that never was says so rather than "expired".

let server: TestServer;
let browser: Browser;
let album: Fundraiser;
const ALBUM = 'Songs for the Harbor';

useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, 'guest-listening-owner@example.org');
  album = await createFundraiser(owner, {
    details: { name: ALBUM },
    // Long enough to hear time pass.
    uploads: await uploadListenableMusic(owner, [12, 10]),
    publish: true,
  });
  await server.jobs.drain();
});

/** A card expiry a year ahead, as MM/YY. */
const nextYear = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

async function donateAsGuest(page: Page, email: string) {
  await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate`);
  await fillForm(page, { Name: 'Rosa Parks', Email: email, Donation: '25' });
  await page.getByRole('button', { name: 'No tip' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await fillForm(page, { 'Card number': '4242 4242 4242 4242', Expiry: nextYear, CVC: '123' });
  // 'Pay now', or 'Pay $25.00' where the button names the total.
  await page.getByRole('button', { name: /^Pay (now|\$)/ }).click();
  await page.waitForURL(`**/projects/${album.urlSlug}/donate/success?payment_intent=*`);
}

/** The player plays `name` in this tab and its media element moves on. */
async function hearsTrack(page: Page, name: string) {
  await expect.poll(() => musicPlayer(page).locator('.player-title').textContent(), { timeout: 10_000 }).toBe(name);
  const start = (await playingSound(page))?.seek ?? 0;
  await expect.poll(async () => (await playingSound(page))?.seek ?? 0, { timeout: 15_000 }).toBeGreaterThan(start + 1);
  // The granted stream, not one that needs a session.
  expect((await playingSound(page))?.src).toMatch(/\/api\/tracks\/\d+\/stream\?v=[^&]+&grant=/);
}

function receiptLink(email: string): string {
  const receipt = server.outbox
    .messages(email)
    .at(-1)!
    .replace(/=\r?\n/g, '');
  const link = receipt.match(/https?:\/\/[^\s"]+\/purchases\/[A-Za-z0-9_-]{43}/)![0];
  return link.replace(/^https?:\/\/[^/]+/, server.baseUrl);
}

describe('a guest listening at once', () => {
  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`plays and downloads the album from the success page and the receipt's link (${viewport.width} px)`, async () => {
      const email = `guest-listener-${viewport.width}@example.org`;
      const { page } = await newPage(browser, viewport);
      await donateAsGuest(page, email);

      await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
      expect(await page.locator('.donation-success-summary').innerText()).toMatch(
        /Fundraiser\s+Songs for the Harbor[\s\S]*Donation\s+\$25\.00\s+Tip\s+\$0\.00\s+Tax-deductible part\s+\$20\.00/,
      );
      await page
        .getByText(
          "$20.00 of your donation is tax-deductible: what you gave American National Red Cross (EIN 53-0196605) above the fundraiser's $5.00 minimum, which buys the album.",
        )
        .waitFor();
      expect(await page.getByRole('link', { name: 'Download songs' }).getAttribute('href')).toMatch(
        new RegExp(`^/api/fundraisers/${album.id}/download\\?grant=`),
      );
      expect(await seriousViolations(page)).toEqual([]);

      // Listen now: the site's player, with no account.
      expect(await musicPlayer(page).count()).toBe(0);
      await page.getByRole('button', { name: 'Listen now' }).click();
      await hearsTrack(page, 'Track 1');
      await page.getByRole('button', { name: 'Pause', exact: true }).first().waitFor();
      await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.album)).toBe(ALBUM);
      if (viewport.width === mobileViewport.width) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }

      // The receipt's link: the album plays (a track of its list) and downloads.
      await server.jobs.drain();
      await page.goto(receiptLink(email));
      await page.getByRole('heading', { level: 1, name: ALBUM }).waitFor();
      expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
        `/signup?email=${encodeURIComponent(email)}`,
      );
      await page.getByRole('button', { name: 'Play Track 2' }).click();
      await hearsTrack(page, 'Track 2');
      await page.getByRole('button', { name: 'Pause Track 2' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download songs' }).click();
      expect((await download).suggestedFilename()).toBe(`${ALBUM}.zip`);
      if (viewport.width === mobileViewport.width) return;

      // Logging in makes the player the account's: the guest's tracks stop and are gone.
      await verifiedUser(server, email);
      await page.locator('header').getByRole('button', { name: 'Log in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Password').fill(strongPassword);
      await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.locator('header .account-badge').waitFor();
      await musicPlayer(page).waitFor({ state: 'detached' });
      await expect.poll(async () => (await playingSound(page)) === undefined).toBe(true);
      expect(await page.evaluate(() => sessionStorage.getItem('soundcause-player'))).toBeNull();
    });
  }

  it('never says "Thank you!" for a payment it cannot find, and ends on the spec\'s message', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 404 .*\/api\/transactions\/query/);
    // Watched from the first byte of the page on: the title, and every change to the document.
    await page.addInitScript(() => {
      const seen = globalThis as unknown as { saidThanks: boolean };
      seen.saidThanks = false;
      const look = () => {
        if (document.title.includes('Thank you') || document.documentElement.textContent?.includes('Thank you')) {
          seen.saidThanks = true;
        }
      };
      new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate/success?payment_intent=pi_unknown_123`);
    await page.getByRole('heading', { level: 1, name: 'Your donation' }).waitFor();
    await page.getByRole('alert').getByText('Unable to fetch transaction details.').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { saidThanks: boolean }).saidThanks)).toBe(false);
    expect(await page.title()).toBe('Your donation | Soundcause');
    expect(await page.getByRole('button', { name: 'Listen now' }).count()).toBe(0);
  });

  it('says a receipt link that never was is not valid, and only one that ran out has expired', async () => {
    const email = 'expiring-link@example.org';
    await donate(server, { fundraiserId: album.id, email });
    await server.jobs.drain();
    const link = receiptLink(email);
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 404 .*\/api\/purchases\//);

    await page.goto(`${server.baseUrl}/purchases/${'x'.repeat(43)}`);
    await page.getByRole('heading', { level: 1, name: 'This link is not valid' }).waitFor();
    expect(await page.getByText('expired').count()).toBe(0);

    server.db
      .update(purchases)
      .set({ downloadExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchases.email, email))
      .run();
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor();
  });
});
