import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mobileViewport } from '../fixtures/browser';
import { donate } from '../fixtures/donations';
import { logIn, newPage, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createArtist, createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { cutWords } from '../fixtures/layout';
import { adminClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Cards on a 390 px phone (issue 22): every word of a card is seen whole — a charity, an artist,
// a donation date wrap at their spaces (or a clamp hides whole lines), never an ellipsis or an
// edge through the middle of a word — and Your music's tabs all fit, 'Saved on this device' too.

let server: TestServer;
let browser: Browser;
const OWNER = 'long-names@example.org';
const FAN = 'long-names-fan@example.org';
let fundraiserId = 0;
let artistSlug = '';

/** Long names, as real ones are: the tiles two across a phone are 150 px wide. */
const ALSAC_EIN = '62-0646012'; // ALSAC / St. Jude Children's Research Hospital
const ACLU_EIN = '13-6213516'; // American Civil Liberties Union Foundation

useAppAndBrowser(async (started, launched) => {
  server = started;
  browser = launched;
  const owner = await verifiedUser(server, OWNER);
  const artist = await createArtist(owner, {
    name: 'The Lantern Collective Orchestra',
    description:
      'A twelve-piece band from Portland playing lullabies, sea shanties and hymns for the charities of its members, on tour every summer since the first album.',
  });
  artistSlug = artist.urlSlug!;
  const uploads = await uploadMusic(owner, 1);
  const first = await createFundraiser(owner, {
    artistId: artist.id,
    charityEin: ALSAC_EIN,
    details: { name: 'Songs from the Night Shift' },
    uploads,
    publish: true,
  });
  fundraiserId = first.id;
  await createFundraiser(owner, {
    artistId: artist.id,
    charityEin: ACLU_EIN,
    details: { name: 'Standards for Insomniacs' },
    uploads,
    publish: true,
  });
  await verifiedUser(server, FAN);
  await donate(server, {
    fundraiserId,
    email: FAN,
    name: 'Maximiliana Featherstonehaugh-Wolstenholme',
    tipCents: 250,
  });
  // The home page's carousel shows them too.
  const admin = await adminClient(server, 'long-names-admin@example.org');
  await admin.put('/api/admin/projects/featured', { json: [fundraiserId] });
});

/** The cards of each kind (the home page's charities too), and Your music's tabs. */
const CARDS = ['.fundraiser-tile', '.album-tile', '.artist-tile', '.home-charity', '.donor-card', '.tabs'];

async function cutWordsOn(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const pagePath of paths) {
    await page.goto(`${server.baseUrl}${pagePath}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await pageSettled(page);
    // Each page shows cards of the kind it is here for.
    expect(await page.locator(CARDS.join(', ')).count(), pagePath).toBeGreaterThan(0);
    const cut = (await Promise.all(CARDS.map((selector) => cutWords(page, selector)))).flat();
    if (cut.length > 0) found[pagePath] = cut;
    if (process.env.SHOT_DIR) {
      const name = pagePath.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home';
      await page.screenshot({ path: path.join(process.env.SHOT_DIR, `cards-${name}-390.png`), fullPage: true });
    }
  }
  return found;
}

describe('cards at 390 px', () => {
  it("shows every word of a visitor's cards whole: artists and charities wrap, never cut", async () => {
    const { page } = await newPage(browser, mobileViewport);
    expect(await cutWordsOn(page, ['/', '/browse', `/artists/${artistSlug}`, '/browse/artists'])).toEqual({});
    // The charity is there in full, not an ellipsis.
    await page.goto(`${server.baseUrl}/browse`);
    await page
      .locator('.fundraiser-tile')
      .getByText("ALSAC / St. Jude Children's Research Hospital", { exact: true })
      .waitFor();
  });

  it("shows every word of a fan's and an artist's cards whole: donation dates, donors, Your music's tabs", async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, FAN);
    expect(
      await cutWordsOn(page, ['/music/albums/past-donations', '/music/albums/user', '/music/albums/saved']),
    ).toEqual({});
    const saved = page.getByRole('navigation', { name: 'Your music' }).getByRole('link', {
      name: 'Saved on this device',
    });
    expect(await saved.isVisible()).toBe(true);

    const { page: ownerPage } = await newPage(browser, mobileViewport);
    await logIn(ownerPage, server.baseUrl, OWNER);
    expect(
      await cutWordsOn(ownerPage, ['/fundraisers/user', `/fundraisers/user/${fundraiserId}`, '/artists/user']),
    ).toEqual({});
  });

  it("shows each of the admin's six tabs whole once scrolled to: one row, no label cut", async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, 'long-names-admin@example.org');
    await page.goto(`${server.baseUrl}/admin/featured-charities`);
    // The row scrolls sideways (issue 9), so each tab is judged once it is scrolled into view.
    const tabs = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link');
    await tabs.first().waitFor();
    expect(await tabs.count()).toBe(6);
    for (let index = 1; index <= 6; index++) {
      const selector = `.tabs .tab:nth-child(${index})`;
      await page.locator(selector).scrollIntoViewIfNeeded();
      expect(await cutWords(page, selector)).toEqual([]);
    }
  });
});
