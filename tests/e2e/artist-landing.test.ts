import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

// The artist sign-up landing page (spec part 1 section 2, part 2 section 1; DESIGN.md corrections:
// /for-artists and /artists/join): the same page at both addresses, what artists get and where the
// money goes, and the way in that fits who is looking — an account for a guest, an artist or a
// fundraiser for someone signed in.

let server: TestServer;
let browser: Browser;
const ARTIST = 'landing-artist@example.org';

useAppAndBrowser(async (started, launched) => {
  server = started;
  browser = launched;
  await verifiedUser(server, ARTIST);
});

const ADDRESSES = ['/for-artists', '/artists/join'];

const main = (page: Page) => page.locator('main');
const hrefOf = (page: Page, name: string) =>
  main(page).getByRole('link', { name, exact: true }).first().getAttribute('href');

describe('the artist landing page', () => {
  it('shows a guest what artists get and where the money goes, and asks them to create an account', async () => {
    const { page } = await newPage(browser);
    for (const address of ADDRESSES) {
      const response = await page.goto(`${server.baseUrl}${address}`);
      expect(response?.status(), address).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Your music, for a cause you choose' }).waitFor();
      expect(await page.title()).toBe('For artists | Soundcause');
      // The true facts: no percentage, the card fee, the optional tip, the public ledger.
      const text = await main(page).innerText();
      expect(text).toContain('Soundcause takes no percentage');
      expect(text).toContain('about 2–3% of the payment');
      expect(text).toMatch(/tip for Soundcause; it is optional/);
      expect(await hrefOf(page, 'See where the money goes')).toBe('/where-the-money-goes');
      expect(await hrefOf(page, 'Create an account')).toBe('/signup');
      expect(await hrefOf(page, 'Start a fundraiser')).toBe('/fundraisers/new');
      expect(await main(page).getByRole('link', { name: 'Create an artist' }).count()).toBe(0);
    }
    // The account leads on to making an artist: sign-up, then the artist form once verified.
    await main(page).getByRole('link', { name: 'Create an account', exact: true }).first().click();
    await page.waitForURL(`${server.baseUrl}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
    expect(await page.evaluate(() => (history.state as { usr?: { from?: string } }).usr?.from)).toBe('/artists/new');
  });

  it('offers someone signed in an artist or a fundraiser, and brings a guest who logs in back to it', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/artists/join`);
    await main(page).getByRole('link', { name: 'Log in', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(ARTIST);
    await page.getByLabel('Password', { exact: true }).fill(strongPassword);
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/artists/join`);
    await main(page).getByRole('link', { name: 'Create an artist', exact: true }).first().waitFor();
    expect(await hrefOf(page, 'Create an artist')).toBe('/artists/new');
    expect(await hrefOf(page, 'Start a fundraiser')).toBe('/fundraisers/new');
    expect(await main(page).getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    await main(page).getByRole('link', { name: 'Create an artist', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Create a new artist' }).waitFor();
  });

  it('is reached from the footer and from How it works, and is accessible at both widths', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const { page } = await newPage(browser, viewport);
      await logIn(page, server.baseUrl, ARTIST);
      await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'For artists' }).click();
      await page.waitForURL(`${server.baseUrl}/for-artists`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${server.baseUrl}/howitworks`);
      await main(page).getByRole('link', { name: 'What artists get' }).click();
      await page.waitForURL(`${server.baseUrl}/for-artists`);
    }
  });
});
