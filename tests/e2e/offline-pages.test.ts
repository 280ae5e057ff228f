import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../fixtures/axe';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { logIn, newContext, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage, goOffline } from '../fixtures/offline';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

// Pages that need the network say so plainly with none (issue 12): what only the server can do
// is disabled with the reason beside it (client/ui/needs-network.tsx), and a page whose data
// cannot load says that it needs a connection instead of spinning. Each page is opened online
// and the connection then goes away, as on a phone (Chromium's emulation leaves a document
// loaded offline thinking it is online).

let server: TestServer;
let browser: Browser;
const email = 'offline-pages@example.org';
let slug = '';
let artistSlug = '';

useAppAndBrowser((started, launched) => {
  server = started;
  browser = launched;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, email);
  const album = await createFundraiser(owner, {
    details: { name: 'Connected Songs' },
    uploads: await uploadListenableMusic(owner, [3]),
    publish: true,
  });
  slug = album.urlSlug!;
  artistSlug = album.artist.urlSlug!;
  await server.jobs.drain();
});

/** What a page without its data says offline (issue 22), with the way to the music that still plays. */
const offlineNotice = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'You’re offline. Saved music still plays — open Your music.' });

const reason = (page: Page, action: string) =>
  page.getByText(`You’re offline. Connect to the internet to ${action}.`, { exact: true });

describe('pages that need the network, offline', () => {
  it('disables what only the server can do, with the reason, and says a page needs a connection', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, email);
    try {
      // The album page: the zip download needs the server; saving needs it too.
      await page.goto(`${server.baseUrl}/music/album/${slug}`);
      const download = page.getByRole('link', { name: 'Download songs' });
      expect(await download.getAttribute('href')).toMatch(/^\/api\/fundraisers\/\d+\/download$/);
      await goOffline(context, page);
      await reason(page, 'download the songs').waitFor();
      expect(await download.getAttribute('aria-disabled')).toBe('true');
      expect(await download.getAttribute('href')).toBeNull();
      expect(await page.getByRole('button', { name: 'Save for offline' }).isDisabled()).toBe(true);
      await reason(page, 'save this album').waitFor();
      // The footer's mailing list signs up through the server too.
      expect(await page.getByRole('button', { name: 'Sign up', exact: true }).isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      // Back online, the page asks for the album again. Chromium's emulation gives the service
      // worker its network back a moment after the page hears it is online: the first try may
      // fail, and the query's retry answers.
      allowConsoleErrors(page, /ERR_FAILED .*\/api\/music-library\/album\/slug\//);
      await context.setOffline(false);
      await expect.poll(() => download.getAttribute('href')).toMatch(/\/download$/);
      expect(await reason(page, 'download the songs').count()).toBe(0);

      // The account page's forms.
      await page.goto(`${server.baseUrl}/user`);
      const change = page.getByRole('button', { name: 'Change password' });
      await change.waitFor();
      await goOffline(context, page);
      await reason(page, 'change your password').waitFor();
      expect(await change.isDisabled()).toBe(true);
      expect(await change.getAttribute('aria-describedby')).toBeTruthy();
      expect(await page.getByRole('button', { name: 'Delete my account' }).isDisabled()).toBe(false);
      await context.setOffline(false);

      // Donating.
      await page.goto(`${server.baseUrl}/projects/${slug}/donate`);
      const next = page.getByRole('button', { name: 'Next' });
      await next.waitFor();
      await goOffline(context, page);
      await reason(page, 'donate').waitFor();
      expect(await next.isDisabled()).toBe(true);

      // A page whose data needs the network, opened with none: words, not a spinner.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How it works' }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Browse fundraisers & artists' })
        .click();
      await offlineNotice(page).waitFor();
      await page.getByText('This page loads as soon as you’re back online.').waitFor();
      expect(await page.locator('.spinner').count()).toBe(0);
      await context.setOffline(false);
      await page.getByRole('heading', { level: 1 }).waitFor();
    } finally {
      await close();
    }
  });
});

describe('a page whose data is not on the device, offline', () => {
  it('says what still works, with the way to Your music, instead of "Something went wrong!"', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, email);
    try {
      await goOffline(context, page);
      // Opened offline, each from the service worker's shell: a fundraiser, an artist, browse, and
      // the owner's own pages. (Chromium's emulation leaves such a document thinking it is online,
      // as a phone on a network that carries nothing: its calls fail instead of waiting.)
      for (const path of [`/projects/${slug}`, `/artists/${artistSlug}`, '/browse', '/fundraisers/user']) {
        await page.goto(`${server.baseUrl}${path}`);
        await offlineNotice(page).waitFor();
        expect(await page.getByText(/something went wrong/i).count(), path).toBe(0);
        expect(await page.getByText("You don't have any fundraisers yet.").count(), path).toBe(0);
      }
      expect(await seriousViolations(page)).toEqual([]);

      // Back online, the page asks again: by itself when the browser says it is online (React
      // Query refetches on reconnect), or when the visitor presses Try again first.
      await page.goto(`${server.baseUrl}/projects/${slug}`);
      await offlineNotice(page).waitFor();
      await context.setOffline(false);
      const heading = page.getByRole('heading', { level: 1, name: 'Connected Songs' });
      await Promise.race([
        heading.waitFor(),
        page
          .getByRole('button', { name: 'Try again' })
          .click({ timeout: 5_000 })
          .catch(() => heading.waitFor()),
      ]);
      await heading.waitFor();

      // The link leads to the music saved on this device, which opens with no network.
      await goOffline(context, page);
      await page.goto(`${server.baseUrl}/artists/${artistSlug}`);
      await offlineNotice(page).getByRole('link', { name: 'Your music' }).click();
      await page.waitForURL(`${server.baseUrl}/music/albums/saved`);
      await page.getByText('No music saved on this device yet.', { exact: false }).waitFor();
    } finally {
      await close();
    }
  });

  it("says so when a page's code is not on the device, and keeps the spec's words when it is gone online", async () => {
    // No service worker (a browser without one, or a first visit still installing it): the pages'
    // code comes from the network as each page is first opened.
    const context = await newContext(browser);
    await context.addInitScript(() => {
      Reflect.deleteProperty(Navigator.prototype, 'serviceWorker');
    });
    const page = await context.newPage();
    await logIn(page, server.baseUrl, email);
    await pageSettled(page);
    await goOffline(context, page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
    await page.waitForURL(`${server.baseUrl}/about`);
    await offlineNotice(page).waitFor();
    expect(await page.getByText(/something went wrong/i).count()).toBe(0);
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: /^About / }).waitFor();

    // Online, a page's code that is gone (a new version deployed meanwhile) is a real failure.
    await context.route(/\/assets\/contact-page-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    allowConsoleErrors(page, /contact-page-[^/]*\.js/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact us' }).click();
    await page.getByText('Sorry, something went wrong. Please try again later.').waitFor();
    expect(await page.getByText('You’re offline.', { exact: false }).count()).toBe(0);
  });
});
