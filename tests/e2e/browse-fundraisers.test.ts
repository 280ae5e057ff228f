import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../fixtures/axe';
import { ensureAdmin } from '../../server/features/accounts/service';
import { featuredCharitiesSchema } from '../../shared/answers/charities';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { launchBrowser, mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { logIn, newContext, newPage, pageSettled, startAppServer } from '../fixtures/e2e-app';
import {
  CANCER_SOCIETY_EIN,
  createArtist,
  createFundraiser,
  RED_CROSS_EIN,
  uploadMusic,
} from '../fixtures/fundraisers';
import { strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

// The fundraiser lists outside the fundraisers feature (spec part 1 section 2, Browse and Home;
// part 2 section 2): browse search, home featured fundraisers and charities, the artist page's
// list, the 'Greatest Hits' promo, and the admins' featured charities. Everything is made through
// the real API over HTTP, then looked at in Chromium.

let server: TestServer;
let browser: Browser;

/** The promo is the first fundraiser made below (ids start at 1 on a fresh database). */
const PROMO_ID = 1;

let greatestHits: Fundraiser;
let shanties: Fundraiser;
let newest: Fundraiser;
const fillerCount = 20;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer({ PROMO_PROJECT_ID: String(PROMO_ID) }), launchBrowser()]);
  const owner = await verifiedUser(server, 'browse-owner@example.org');
  const marigold = await createArtist(owner, { name: 'Marigold Static' });
  const harbor = await createArtist(owner, { name: 'Harbor Lights Choir' });
  // One set of uploads serves every fundraiser, so 23 of them stay cheap.
  const uploads = await uploadMusic(owner, 1);
  greatestHits = await createFundraiser(owner, {
    artistId: marigold.id,
    uploads,
    publish: true,
    charityEin: RED_CROSS_EIN,
    details: { name: 'Greatest Hits', genre: 'Jazz', genreSecondary: '' },
  });
  shanties = await createFundraiser(owner, {
    artistId: harbor.id,
    uploads,
    publish: true,
    charityEin: CANCER_SOCIETY_EIN,
    details: { name: 'Sea Shanties for Science', genre: 'Folk', genreSecondary: '' },
  });
  await createFundraiser(owner, {
    artistId: marigold.id,
    uploads,
    details: { name: 'Unfinished Demos', genre: 'Rock', genreSecondary: '' },
  });
  for (let i = 1; i <= fillerCount; i++) {
    newest = await createFundraiser(owner, {
      artistId: marigold.id,
      uploads,
      publish: true,
      charityEin: RED_CROSS_EIN,
      details: { name: `Filler Album ${i}`, genre: 'Rock', genreSecondary: '' },
    });
  }
  expect(greatestHits.id).toBe(PROMO_ID);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const main = (page: Page) => page.locator('main');
/** The tiles' headings of the results list under `heading`. */
const tileNames = (page: Page, heading: string) =>
  main(page)
    .getByRole('region', { name: new RegExp(`^${heading}`) })
    .getByRole('listitem')
    .getByRole('heading', { level: 3 })
    .allTextContents();

describe('browse fundraisers', () => {
  it('lists published fundraisers, newest first, under Recent fundraisers, 20 to a page', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects`);
    await page.getByRole('heading', { name: 'Recent fundraisers' }).waitFor();
    await main(page).getByRole('heading', { name: newest.name }).waitFor();
    // The page's HTML draws the list's first four tiles before the app draws its twenty.
    await expect.poll(async () => (await tileNames(page, 'Recent fundraisers')).length).toBe(20);
    const firstPage = await tileNames(page, 'Recent fundraisers');
    expect(firstPage[0]).toBe(newest.name);
    expect(firstPage).not.toContain('Unfinished Demos');
    // The tile shows artist and charity, and leads to the fundraiser's page by slug.
    const tile = main(page).getByRole('listitem').filter({ hasText: newest.name });
    await tile.getByText('Marigold Static').waitFor();
    await tile.getByText('American National Red Cross').waitFor();
    expect(await tile.getByRole('link').getAttribute('href')).toBe(`/projects/${newest.urlSlug}`);
    expect(await tile.locator('img').getAttribute('srcset')).toMatch(/-400\.jpg 400w/);
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-fundraisers-1280.png`, fullPage: true });

    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL('**/browse/projects?page=1');
    await page.getByText('Page 2 of 2').waitFor();
    await expect
      .poll(() => tileNames(page, 'Recent fundraisers'))
      .toEqual(['Sea Shanties for Science', 'Greatest Hits']);

    // A page that is not a number is the first page.
    await page.goto(`${server.baseUrl}/browse/projects?page=abc`);
    await page.getByText('Page 1 of 2').waitFor();
    await expect.poll(async () => (await tileNames(page, 'Recent fundraisers')).length).toBe(20);
  });

  it('filters by genre and charity EIN from the form and the URL, searches by artist name, and says when nothing matches', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects`);
    const form = page.getByRole('search', { name: 'Search fundraisers' });
    await form.getByLabel('Genre').selectOption('Folk');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?genre=Folk');
    await page.getByRole('heading', { name: 'Search results 1 fundraiser' }).waitFor();
    expect(await tileNames(page, 'Search results')).toEqual(['Sea Shanties for Science']);
    // The fields follow the URL.
    expect(await form.getByLabel('Genre').inputValue()).toBe('Folk');

    await form.getByLabel('Genre').selectOption('');
    await form.getByLabel('Charity EIN').fill(CANCER_SOCIETY_EIN);
    await form.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`**/browse/projects?charityEin=${CANCER_SOCIETY_EIN}`);
    await expect.poll(() => tileNames(page, 'Search results')).toEqual(['Sea Shanties for Science']);

    // The same filters straight from the URL, the EIN written without its dash.
    await page.goto(`${server.baseUrl}/browse/projects?charityEin=530196605&genre=Jazz`);
    await expect.poll(() => tileNames(page, 'Search results')).toEqual(['Greatest Hits']);
    expect(await form.getByLabel('Charity EIN').inputValue()).toBe('530196605');

    await page.goto(`${server.baseUrl}/browse/projects`);
    await form.getByLabel('Search term').fill('harbor lights');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?searchTerm=harbor+lights');
    await expect.poll(() => tileNames(page, 'Search results')).toEqual(['Sea Shanties for Science']);

    // 21 Marigold Static fundraisers: two pages, the filter kept while paging.
    await page.goto(`${server.baseUrl}/browse/projects?searchTerm=Marigold+Static`);
    await page.getByRole('heading', { name: 'Search results 21 fundraisers' }).waitFor();
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL('**/browse/projects?searchTerm=Marigold+Static&page=1');
    await expect.poll(async () => (await tileNames(page, 'Search results')).length).toBe(1);

    await page.goto(`${server.baseUrl}/browse/projects?searchTerm=no+such+album+anywhere`);
    await page.getByText('No results found! Please try a different query.').waitFor();
    expect(await page.getByRole('navigation', { name: /pages$/ }).count()).toBe(0);
  });

  it('says the same when a page without a filter is empty (spec part 1 section 2)', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects?page=9`);
    await page.getByRole('heading', { name: 'Recent fundraisers' }).waitFor();
    await page.getByText('No results found! Please try a different query.').waitFor();
  });

  it('says something went wrong when the search fails', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 500/);
    await page.route('**/api/fundraisers/search?**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"OTHER","message":"boom"}' }),
    );
    // The first page's results come with the page itself (issue 13): the next search asks the API.
    await page.goto(`${server.baseUrl}/browse/projects`);
    const form = page.getByRole('search', { name: 'Search fundraisers' });
    await form.getByLabel('Search term').fill('anything');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('alert').getByText('something went wrong!', { exact: true }).waitFor({ timeout: 10_000 });
  });

  it('works on a 390px phone: two covers across, no banner, nothing wider than the screen', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/browse/projects`);
    await main(page).getByRole('heading', { name: newest.name }).waitFor();
    expect(await page.getByText('Promote your music, support your charity').isVisible()).toBe(false);
    const firstTiles = () =>
      main(page)
        .locator('.fundraiser-tile')
        .evaluateAll((tiles) => tiles.slice(0, 3).map((tile) => tile.getBoundingClientRect().toJSON() as DOMRect));
    // Read once the list is laid out: the heading is in the page's HTML, which the app then draws
    // over, and a CI run once read the first tile at width 0 in between.
    await expect.poll(async () => (await firstTiles())[0]?.width ?? 0).toBeGreaterThan(150);
    const [first, second, third] = await firstTiles();
    expect(first?.width).toBeGreaterThan(150);
    expect(second?.top).toBe(first?.top);
    expect(third?.top).toBeGreaterThan(first?.bottom ?? 0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-fundraisers-390.png` });
  });

  it('shows the desktop banner with Start a fundraiser', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects`);
    await page.getByText('Promote your music, support your charity').waitFor();
    await main(page).getByRole('link', { name: 'Start a fundraiser' }).click();
    await page.waitForURL('**/fundraisers/new**');
  });
});

describe('browse drawn before its app starts (issue 24)', () => {
  // The parts of the page its HTML draws, each found the same way in both drawings.
  const top = [
    'main h1',
    'main nav.tabs [aria-current="page"]',
    'main form[role="search"] input[name="searchTerm"]',
    'main form[role="search"] button',
    'main section > h2',
  ];
  const tiles = (count: number) =>
    Array.from({ length: count }, (_, i) => [
      `main li:nth-child(${i + 1}) article`,
      `main li:nth-child(${i + 1}) img`,
      `main li:nth-child(${i + 1}) .tile-name`,
    ]).flat();

  for (const [path, tileCount] of [
    ['/browse', 4],
    ['/browse/artists', 2],
  ] as const) {
    it(`draws ${path}'s top and first tiles before its app starts, exactly where the app then draws them, at both widths`, async () => {
      for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
        const desktop = viewport.width >= 1024;
        // At 1280px the promo's column is held beside the page from the start (PROMO_ID is public).
        const parts = [
          ...top,
          ...(desktop ? ['main .browse-banner', 'main .browse-banner a'] : []),
          ...tiles(tileCount),
        ];
        const boxesOf = async (withScripts: boolean) => {
          const { page } = await newPage(browser, viewport);
          await page.addInitScript(() => {
            // Whether the page's heading ever left the screen once drawn, and what moved.
            const seen = { drawn: false, blank: false, shifts: [] as number[] };
            Object.assign(window, { seen });
            new MutationObserver(() => {
              const drawn = document.querySelector('main h1') !== null;
              seen.blank ||= seen.drawn && !drawn;
              seen.drawn ||= drawn;
            }).observe(document, { childList: true, subtree: true });
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries())
                seen.shifts.push((entry as PerformanceEntry & { value: number }).value);
            }).observe({ type: 'layout-shift', buffered: true });
          });
          if (withScripts) {
            // The page's own code comes late: until it has, the HTML's drawing stays, never a blank page.
            await page.route('**/assets/browse-page-*.js', async (route) => {
              await new Promise((resolve) => setTimeout(resolve, 1000));
              await route.continue();
            });
          } else {
            // Without its scripts the page shows only what its HTML draws itself.
            await page.route('**/*.js', (route) => route.abort());
            allowConsoleErrors(page, /Failed to load resource/);
          }
          await page.goto(`${server.baseUrl}${path}`);
          if (withScripts) await page.locator('footer.site-footer').waitFor();
          const first = page.locator('main li:nth-child(1) img');
          await expect
            .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
            .toBe(true);
          // The first picture is the one the HTML asked for first, in the rendition it named.
          expect(await first.getAttribute('fetchpriority')).toBe('high');
          expect(await first.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.webp$/);
          const boxes = await Promise.all(parts.map((part) => page.locator(part).boundingBox()));
          const seen = await page.evaluate(
            () => (window as unknown as { seen: { blank: boolean; shifts: number[] } }).seen,
          );
          const drawnFirst = await page.locator('main .first-view').count();
          if (process.env.SHOT_DIR) {
            const name = `browse-first${path.replaceAll('/', '-')}-${viewport.width}-${withScripts ? 'app' : 'html'}`;
            await page.screenshot({ path: `${process.env.SHOT_DIR}/${name}.png` });
          }
          await page.close();
          return { boxes, seen, drawnFirst };
        };
        const before = await boxesOf(false);
        const after = await boxesOf(true);
        expect(before.drawnFirst).toBe(1);
        expect(after.drawnFirst).toBe(0);
        expect(before.boxes.every((box) => box !== null && box.width > 0 && box.height > 0)).toBe(true);
        expect(before.boxes).toEqual(after.boxes);
        expect(after.seen).toEqual({ drawn: true, blank: false, shifts: [] });
      }
    });
  }
  it('asks a phone for the first cover once, in the rendition its tile shows (two across, half the screen)', async () => {
    // A phone as Lighthouse's: its page is 980 px wide until the viewport's tag is read, so a
    // preload before that tag chose the 1200 px rendition for a 180 px tile, and the tile then
    // asked for the 400 px one as well.
    const context = await newContext(browser, {
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
    });
    const page = await context.newPage();
    const covers: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/media/images/')) covers.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.baseUrl}/browse`);
    await page.locator('footer.site-footer').waitFor();
    const first = page.locator('main li:nth-child(1) img');
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    const src = new URL(await first.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
    expect(src).toMatch(/-400\.webp$/);
    const id = src.replace(/-400\.webp$/, '');
    expect(covers.filter((cover) => cover.startsWith(id))).toEqual([src]);
  });
});

describe('home', () => {
  it('shows the featured fundraisers as a carousel with previous and next buttons, and 10 featured charities', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    const carousel = page.getByRole('region', { name: 'Featured fundraisers' });
    await carousel.getByRole('heading', { name: newest.name }).waitFor();
    expect(await carousel.getAttribute('aria-roledescription')).toBe('carousel');
    // No fundraisers chosen by admins yet: the newest published ones.
    const slides = carousel.locator('[aria-roledescription="slide"]');
    const count = await slides.count();
    expect(count).toBeGreaterThan(4);
    expect(await slides.first().getAttribute('aria-label')).toBe(`1 of ${count}`);
    const previous = carousel.getByRole('button', { name: 'Previous fundraisers' });
    const next = carousel.getByRole('button', { name: 'Next fundraisers' });
    expect(await previous.isDisabled()).toBe(true);
    const track = carousel.getByRole('list');
    await next.click();
    await expect.poll(() => track.evaluate((list) => list.scrollLeft)).toBeGreaterThan(0);
    await expect.poll(() => previous.isDisabled()).toBe(false);
    await previous.click();
    await expect.poll(() => track.evaluate((list) => list.scrollLeft)).toBe(0);

    await page.getByRole('link', { name: 'Browse recent fundraisers' }).waitFor();
    const charities = page.getByRole('region', { name: 'Featured charities' }).getByRole('listitem');
    await expect.poll(() => charities.count()).toBe(10);
    const redCross = charities.filter({ hasText: 'American National Red Cross' });
    expect(await redCross.getByRole('link').getAttribute('href')).toBe('https://www.redcross.org');
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-home-1280.png`, fullPage: true });

    await page.getByRole('link', { name: 'Browse recent fundraisers' }).click();
    await page.waitForURL('**/browse/projects');
  });

  it('lets a phone swipe the featured row (no paging buttons) and keeps the page within 390px', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(server.baseUrl);
    const carousel = page.getByRole('region', { name: 'Featured fundraisers' });
    await carousel.getByRole('heading', { name: newest.name }).waitFor();
    expect(await carousel.getByRole('button', { name: 'Next fundraisers' }).isVisible()).toBe(false);
    const track = carousel.getByRole('list');
    expect(await track.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect
      .poll(() => page.getByRole('region', { name: 'Featured charities' }).getByRole('listitem').count())
      .toBe(10);
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-home-390.png`, fullPage: true });
  });
});

describe('featured charities admin', () => {
  it('lets an admin remove, add from the directory, reorder and save; the home page shows the new list', async () => {
    await ensureAdmin({ db: server.db }, 'charity-admin@example.org', strongPassword);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, 'charity-admin@example.org');
    // The tabs that were there still work.
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByText('No transactions!').waitFor();
    await page.getByRole('link', { name: 'Featured charities' }).click();
    await page.waitForURL('**/admin/featured-charities');

    const form = page.getByRole('form', { name: 'Featured charities' });
    const rows = form.getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(10);
    await form.getByText('10 of 10', { exact: true }).waitFor();
    const save = form.getByRole('button', { name: 'Save featured charities' });
    expect(await save.isDisabled()).toBe(true);

    await form.getByRole('button', { name: 'Remove Feeding America' }).click();
    await form.getByText('9 of 10', { exact: true }).waitFor();

    const search = page.getByRole('region', { name: 'Add a charity' });
    await search.getByLabel('Search charities').fill('nature conservancy');
    await search.getByRole('button', { name: 'Add The Nature Conservancy' }).click();
    await form.getByText('10 of 10', { exact: true }).waitFor();
    const added = search.getByRole('button', { name: 'Added The Nature Conservancy' });
    expect(await added.getAttribute('aria-disabled')).toBe('true');
    // It kept the keyboard focus.
    expect(await added.evaluate((button) => button === document.activeElement)).toBe(true);
    // The list is full again: another charity cannot be added.
    await search.getByLabel('Search charities').fill('wikimedia');
    await search.getByText('The list is full', { exact: false }).waitFor();
    const wikimedia = search.getByRole('button', { name: 'Add Wikimedia Foundation' });
    expect(await wikimedia.getAttribute('aria-disabled')).toBe('true');
    // Pressing it anyway (it stays focusable) changes nothing.
    await wikimedia.focus();
    await page.keyboard.press('Enter');
    await form.getByText('10 of 10', { exact: true }).waitFor();

    // Up twice from the last place, with the keyboard focus staying on the button.
    const up = form.getByRole('button', { name: 'Move The Nature Conservancy up' });
    await up.click();
    await expect.poll(() => up.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const order = await rows.locator('.featured-charity-name').allTextContents();
    expect(order.at(-3)).toBe('The Nature Conservancy');
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-admin-charities-1280.png`, fullPage: true });

    await save.click();
    await page.getByRole('dialog').getByText('Featured charities updated successfully.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();

    const stored = featuredCharitiesSchema.parse((await server.client().get('/api/nonprofits/featured')).json);
    expect(stored.nonprofits.map((charity) => charity.name)).toEqual(order);

    await page.goto(server.baseUrl);
    const charities = page.getByRole('region', { name: 'Featured charities' }).getByRole('listitem');
    await expect.poll(() => charities.count()).toBe(10);
    const shown = await charities.allTextContents();
    expect(shown.some((text) => text.includes('The Nature Conservancy'))).toBe(true);
    expect(shown.some((text) => text.includes('Feeding America'))).toBe(false);
    expect(shown.findIndex((text) => text.includes('The Nature Conservancy'))).toBe(7);
  });

  it('works on a 390px phone', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, 'charity-admin@example.org');
    await page.goto(`${server.baseUrl}/admin/featured-charities`);
    await expect
      .poll(() => page.getByRole('form', { name: 'Featured charities' }).getByRole('listitem').count())
      .toBe(10);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: `${process.env.SHOT_DIR}/browse-admin-charities-390.png`, fullPage: true });
  });
});

describe('artist page', () => {
  it("lists the artist's published fundraisers under Recent fundraisers, not drafts", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/artists/${shanties.artist.urlSlug}`);
    await page.getByRole('heading', { name: 'Recent fundraisers' }).waitFor();
    await expect.poll(() => tileNames(page, 'Recent fundraisers')).toEqual(['Sea Shanties for Science']);
    const link = main(page).getByRole('link', { name: 'Sea Shanties for Science' });
    expect(await link.getAttribute('href')).toBe(`/projects/${shanties.urlSlug}`);
    await link.hover();
    await expect
      .poll(() =>
        main(page)
          .locator('.fundraiser-tile .tile-hover')
          .evaluate((hover) => [hover.textContent, getComputedStyle(hover).opacity]),
      )
      .toEqual(['View', '1']);

    await page.goto(`${server.baseUrl}/artists/${greatestHits.artist.urlSlug}`);
    await expect.poll(async () => (await tileNames(page, 'Recent fundraisers')).length).toBe(fillerCount + 1);
    const names = await tileNames(page, 'Recent fundraisers');
    expect(names[0]).toBe(newest.name);
    expect(names).not.toContain('Unfinished Demos');
  });
});

describe('Greatest Hits promo', () => {
  const promo = (page: Page) => page.getByRole('complementary', { name: 'Greatest Hits' });

  it('sits beside content pages from 1280px, and links to the fundraiser', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects`);
    await promo(page).waitFor();
    await promo(page).getByText('Marigold Static').waitFor();
    const aside = await promo(page).boundingBox();
    const content = await page.locator('.with-promo-content').boundingBox();
    if (!aside || !content) throw new Error('promo or content not laid out');
    expect(aside.x).toBeGreaterThanOrEqual(content.x + content.width);
    await promo(page)
      .getByRole('link', { name: /Listen & donate/ })
      .click();
    await page.waitForURL(`**/projects/${greatestHits.urlSlug}`);
    // Not beside its own page. Its own heading, not any: the browse page may still be on screen
    // for a moment after the URL has changed.
    await page.getByRole('heading', { level: 1, name: greatestHits.name }).waitFor();
    expect(await promo(page).count()).toBe(0);

    for (const path of ['/about', '/howitworks', `/artists/${shanties.artist.urlSlug}`]) {
      await page.goto(`${server.baseUrl}${path}`);
      await promo(page).waitFor();
    }
    // Not on the home page, nor beside forms.
    for (const path of ['/', '/login', '/fundraisers/new']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await pageSettled(page);
      expect(await promo(page).count()).toBe(0);
    }
  });

  it('neither narrows nor moves the page between 1024px and 1279px, and is absent on phones', async () => {
    const { page } = await newPage(browser, { width: 1100, height: 800 });
    await page.goto(`${server.baseUrl}/browse/projects`);
    await promo(page).waitFor();
    const { pageWidth, viewport, promoTop, contentBottom } = await page.evaluate(() => ({
      pageWidth: document.querySelector('main .page')?.getBoundingClientRect().width,
      viewport: document.documentElement.clientWidth,
      promoTop: document.querySelector('.promo-aside')?.getBoundingClientRect().top ?? 0,
      contentBottom: document.querySelector('.with-promo-content')?.getBoundingClientRect().bottom ?? 0,
    }));
    expect(pageWidth).toBe(viewport);
    expect(promoTop).toBeGreaterThanOrEqual(contentBottom);

    const phone = await newPage(browser, mobileViewport);
    await phone.page.goto(`${server.baseUrl}/browse/projects`);
    await main(phone.page).getByRole('heading', { name: newest.name }).waitFor();
    expect(await promo(phone.page).count()).toBe(0);
  });

  it('is left out when the promo fundraiser cannot be loaded', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 404/);
    await page.route(`**/api/fundraisers/${PROMO_ID}`, (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"OTHER","message":"Not found"}' }),
    );
    await page.goto(`${server.baseUrl}/about`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await pageSettled(page);
    expect(await promo(page).count()).toBe(0);
    expect(await page.locator('.with-promo-shown').count()).toBe(0);
  });
});

describe('accessibility of these lists (axe-core, serious and critical rules)', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['390px phone', mobileViewport],
  ] as const) {
    it(`has no serious violations on browse, home, the artist page and the admin form, ${name}`, async () => {
      await ensureAdmin({ db: server.db }, 'axe-admin@example.org', strongPassword);
      const { page } = await newPage(browser, viewport);
      await logIn(page, server.baseUrl, 'axe-admin@example.org');
      const found: Record<string, string[]> = {};
      for (const [path, ready] of [
        ['/browse/projects', newest.name],
        ['/browse/projects?genre=Folk', shanties.name],
        ['/', newest.name],
        [`/artists/${shanties.artist.urlSlug}`, shanties.name],
        ['/admin/featured-charities', 'Add a charity'],
      ] as const) {
        await page.goto(`${server.baseUrl}${path}`);
        await main(page).getByRole('heading', { name: ready }).first().waitFor();
        await pageSettled(page);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    });
  }
});
