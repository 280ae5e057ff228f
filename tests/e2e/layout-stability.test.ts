import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mobileViewport } from '../fixtures/browser';
import { logIn, newPage, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { donate } from '../fixtures/donations';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

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
const FAN = 'steady-fan@example.org';

useAppAndBrowser(async (startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
  const owner = await verifiedUser(server, 'steady-owner@example.org');
  const fundraiser = await createFundraiser(owner, {
    publish: true,
    uploads: await uploadListenableMusic(owner, [3, 3]),
    details: { name: 'Steady as She Goes' },
  });
  await server.jobs.drain();
  fundraiserPath = `/projects/${fundraiser.urlSlug}`;
  artistPath = `/artists/${fundraiser.artist.urlSlug}`;
  albumPath = `/music/album/${fundraiser.urlSlug}`;
  await verifiedUser(server, FAN);
  await donate(server, { fundraiserId: fundraiser.id, email: FAN });
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
  return page.evaluate(() => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts);
}

const guestPages = () => ['/', '/browse', '/browse/artists', fundraiserPath, artistPath, `${fundraiserPath}/donate`];
const staticPages = ['/howitworks', '/about', '/contact', '/terms', '/where-the-money-goes', '/login', '/signup'];
const fanPages = () => ['/music/albums/past-donations', albumPath, '/user', fundraiserPath];

describe('layout stability (CLS ≤ 0.1)', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['390px phone', mobileViewport],
  ] as const) {
    it(`keeps the pages a visitor lands on still as they load, ${name}`, async () => {
      const moved: Record<string, unknown> = {};
      for (const path of [...guestPages(), ...staticPages]) {
        // A new page each time: every page is someone's first, with nothing cached.
        const { page } = await newPage(browser, viewport);
        await watchShifts(page);
        const shifts = await shiftsOf(page, path);
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        if (total > CLS_BOUND) moved[path] = { total, shifts };
        await page.context().close();
      }
      expect(moved).toEqual({});
    });

    it(`keeps a fan's pages still as they load, ${name}`, async () => {
      const { page } = await newPage(browser, viewport);
      await logIn(page, server.baseUrl, FAN);
      await watchShifts(page);
      const moved: Record<string, unknown> = {};
      for (const path of fanPages()) {
        const shifts = await shiftsOf(page, path);
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        if (total > CLS_BOUND) moved[path] = { total, shifts };
      }
      expect(moved).toEqual({});
    });
  }
});
