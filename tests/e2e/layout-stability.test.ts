import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mobileViewport } from '../fixtures/browser';
import { logIn, newPage, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { donate } from '../fixtures/donations';
import { adminClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Issue 13: nothing on a page moves as it loads (cumulative layout shift ≤ 0.1, the "good" bound of
// Core Web Vitals) — the header drawn before the app, the page's first answers, pictures in their
// squares, skeletons the size of what comes. Measured the browser's own way (layout-shift entries
// not caused by input), on every page a visitor or a fan lands on, at both widths.

const CLS_BOUND = 0.1;

let server: TestServer;
let browser: Browser;
let fundraiserPath = '';
let artistPath = '';
let albumPath = '';
/** The owner's own pages: their artist's, their published fundraiser's and a draft's. */
let ownerPages: string[] = [];
const OWNER = 'steady-owner@example.org';
const FAN = 'steady-fan@example.org';
const ADMIN = 'steady-admin@example.org';

useAppAndBrowser(async (startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
  const owner = await verifiedUser(server, OWNER);
  const fundraiser = await createFundraiser(owner, {
    publish: true,
    uploads: await uploadListenableMusic(owner, [3, 3]),
    details: { name: 'Steady as She Goes' },
  });
  await server.jobs.drain();
  fundraiserPath = `/projects/${fundraiser.urlSlug}`;
  artistPath = `/artists/${fundraiser.artist.urlSlug}`;
  albumPath = `/music/album/${fundraiser.urlSlug}`;
  const draft = await createFundraiser(owner, { artistId: fundraiser.artist.id, details: { name: 'Still Drafting' } });
  ownerPages = [
    '/artists/user',
    `/artists/user/${fundraiser.artist.id}/edit`,
    '/artists/new',
    '/fundraisers/user',
    `/fundraisers/user/${fundraiser.id}`,
    `/fundraisers/user/${draft.id}/edit`,
    '/fundraisers/new',
    '/music/albums/user',
    '/music/albums/saved',
  ];
  await verifiedUser(server, FAN);
  await donate(server, { fundraiserId: fundraiser.id, email: FAN });
  await adminClient(server, ADMIN);
});

/** Starts counting layout shifts before the page's first script runs. */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((source) =>
          source.node instanceof Element ? `${source.node.tagName.toLowerCase()}.${source.node.className}` : '?',
        );
        shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function shiftsOf(page: Page, path: string) {
  await page.goto(`${server.baseUrl}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await pageSettled(page);
  // The page itself was measured, not one it sent the visitor to (the login, home).
  expect(new URL(page.url()).pathname.startsWith(path), `${path} went to ${page.url()}`).toBe(true);
  return page.evaluate(() => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts);
}

const guestPages = () => ['/', '/browse', '/browse/artists', fundraiserPath, artistPath, `${fundraiserPath}/donate`];
const staticPages = [
  '/howitworks',
  '/for-artists',
  '/artists/join',
  '/about',
  '/contact',
  '/terms',
  '/where-the-money-goes',
  '/support',
  '/support/donate',
  '/login',
  '/signup',
];
const fanPages = () => ['/music/albums/past-donations', albumPath, '/user', fundraiserPath];
const adminPages = [
  '/admin/transactions',
  '/admin/disbursements',
  '/admin/disbursements/new',
  '/admin/featured-fundraisers',
  '/admin/featured-charities',
];

/** Each path's layout shifts above the bound, loaded one after another in `page`: {} when none moved. */
async function movedOn(page: Page, paths: string[]) {
  const moved: Record<string, unknown> = {};
  for (const path of paths) {
    const shifts = await shiftsOf(page, path);
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    if (total > CLS_BOUND) moved[path] = { total, shifts };
  }
  return moved;
}

describe('layout stability (CLS ≤ 0.1)', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['390px phone', mobileViewport],
  ] as const) {
    it(`keeps the pages a visitor lands on still as they load, ${name}`, async () => {
      let moved: Record<string, unknown> = {};
      for (const path of [...guestPages(), ...staticPages]) {
        // A new page each time: every page is someone's first, with nothing cached.
        const { page } = await newPage(browser, viewport);
        await watchShifts(page);
        moved = { ...moved, ...(await movedOn(page, [path])) };
        await page.context().close();
      }
      expect(moved).toEqual({});
    });

    for (const [who, email, paths] of [
      ['a fan', FAN, fanPages],
      ['an artist managing their own', OWNER, () => ownerPages],
      ['an admin', ADMIN, () => adminPages],
    ] as const) {
      it(`keeps the pages of ${who} still as they load, ${name}`, async () => {
        const { page } = await newPage(browser, viewport);
        await logIn(page, server.baseUrl, email);
        await watchShifts(page);
        expect(await movedOn(page, paths())).toEqual({});
      });
    }

    // Each row's save button loads once the page has settled (its download button comes with the
    // row): their column keeps their room from the start, so Length and the titles do not jump
    // sideways as it comes.
    it(`keeps an album's track columns in place as each row's buttons arrive, ${name}`, async () => {
      const { page } = await newPage(browser, viewport);
      await logIn(page, server.baseUrl, FAN);
      await watchShifts(page);
      await shiftsOf(page, albumPath);
      await page.locator('.album-tracks .offline-track-button').first().waitFor();
      await page.locator('.album-tracks .download-track-button').first().waitFor();
      const shifts = await page.evaluate(() => (window as unknown as { __shifts: { sources: string[] }[] }).__shifts);
      expect(shifts.flatMap((shift) => shift.sources).filter((source) => /^t[hd]\./.test(source))).toEqual([]);
    });
  }
});
