import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress.mjs';
import { analyticsDailyCounts, mailingListSubscribers } from '../../server/db/schema';
import { launchPersistent, mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, logIn, newPage, startAppServer, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { registerUser, strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

describe('layout', () => {
  it('opens the drawer on a 390px phone with the primary links, and closes it on Escape and on navigation', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(server.baseUrl);
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    const links = await drawer.getByRole('link').allTextContents();
    expect(links).toEqual([
      'Browse fundraisers & artists',
      'How it works',
      'Start a fundraiser',
      'About',
      'Contact',
      'Sign up',
      'Log in',
    ]);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('link', { name: 'About' }).click();
    await page.waitForURL('**/about');
    await drawer.waitFor({ state: 'detached' });
    await page.screenshot({ path: path.join(os.tmpdir(), 'soundcause-about-390.png') });
  });

  it('shows account links, Log out and the email badge in the drawer when logged in', async () => {
    await registerUser(server.client(), 'phone@example.org');
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: 'phone@example.org', Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    for (const name of ['Account details', 'Your music', 'Giving history', 'Your artists', 'Your fundraisers']) {
      await drawer.getByRole('link', { name }).waitFor();
    }
    await drawer.getByText('phone@example.org').waitFor();
    await drawer.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Sign up' }).waitFor();
  });

  it('shows the desktop navbar from 1024px with the Log in button opening the dialog on its login view', async () => {
    const { page } = await newPage(browser, { width: 1024, height: 768 });
    await page.goto(server.baseUrl);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link').first().waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Browse fundraisers & artists',
      'How it works',
      'Start a fundraiser',
    ]);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('dialog', { name: 'Log in' }).getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('dialog', { name: 'Forgot password' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
    await page.keyboard.press('Escape');
    // Reopening starts on the login view again.
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('dialog', { name: 'Log in' }).getByLabel('Email').waitFor();
  });

  it('leads every navigation link to a real page', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Start a fundraiser' }).click();
    // A guest starts the wizard on its sign-up step.
    await page.waitForURL('**/fundraisers/new/signup');
    await page.getByRole('heading', { level: 1, name: /The basics/ }).waitFor();
    for (const link of [
      'Browse artists & fundraisers',
      'How it works',
      'For artists',
      'About',
      'Donate',
      'Contact us',
    ]) {
      await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);
    }
  });

  it('draws the header before the app starts exactly where the app draws it, at both widths', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const brandBox = async (withScripts: boolean) => {
        const { page } = await newPage(browser, viewport);
        // Without its scripts the page shows only what index.html draws itself (issue 13).
        if (!withScripts) await page.route('**/*.js', (route) => route.abort());
        if (!withScripts) allowConsoleErrors(page, /Failed to load resource/);
        await page.goto(server.baseUrl);
        if (withScripts) await page.locator('footer.site-footer').waitFor();
        const brand = page.getByRole('link', { name: 'Soundcause home' });
        const header = page.locator('header.site-header');
        const boxes = { brand: await brand.boundingBox(), header: await header.boundingBox() };
        await page.close();
        return boxes;
      };
      const before = await brandBox(false);
      const after = await brandBox(true);
      expect(before.brand).not.toBeNull();
      expect(before).toEqual(after);
    }
  });

  it('signs up for the mailing list from the footer', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    const form = page.getByRole('form', { name: 'Mailing list signup' });
    // Down to the footer, as a visitor goes: the form's code loads as it comes near (issue 13), or
    // once the visitor has touched the page (issue 24); until then its fields are not usable.
    await form.scrollIntoViewIfNeeded();
    await form.getByLabel('Get updates by email').fill('nope');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await form.getByText('Please enter a valid email.').waitFor();
    await form.getByLabel('Get updates by email').fill('listener@example.org');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await form.getByText('Thanks! You are on the list.').waitFor();
    const emails = server.db
      .select()
      .from(mailingListSubscribers)
      .all()
      .map((row) => row.email);
    expect(emails).toContain('listener@example.org');
  });

  it('titles pages with the site suffix and reports a page view per route change', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How it works' }).click();
    await expect.poll(() => page.title()).toBe('How it works | Soundcause');
    await page.goto(`${server.baseUrl}/browse/artists`);
    await expect.poll(() => page.title()).toBe('Browse artists & fundraisers | Soundcause');
    await expect
      .poll(() =>
        server.db
          .select()
          .from(analyticsDailyCounts)
          .all()
          .map((row) => row.name),
      )
      .toEqual(expect.arrayContaining(['/', '/howitworks', '/browse/artists']));
  });

  it('searches from the home page into the browse page with query parameters', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    const search = page.getByRole('search');
    await search.getByLabel('Search term').fill('jazz night');
    await search.getByLabel('Genre').selectOption('Jazz');
    await search.getByLabel('Charity EIN').fill('13-1788491');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/browse/projects?**');
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      searchTerm: 'jazz night',
      genre: 'Jazz',
      charityEin: '13-1788491',
    });
    await page.getByText('No results found! Please try a different query.').waitFor();
  });

  it('shows a not-found page for unknown routes, an error alert when a page fails to load its data, and what works offline', async () => {
    const { page } = await newPage(browser);
    allowConsoleErrors(
      page,
      // The unknown page's own 404 (issue 9), then the provoked failures and the error page's report of one.
      /status of 404 .*\/no\/such\/page\)$/,
      /status of 502 .*\/api\/token-user\/some-token\)$/,
      /^ApiError: Sorry, something went wrong/,
      /ERR_INTERNET_DISCONNECTED .*\/api\/token-user\/some-token\)$/,
    );
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();

    // The server fails the page's loader (a proxy's error page).
    await page.route('**/api/token-user/**', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }),
    );
    await page.goto(`${server.baseUrl}/reset-password/some-token`);
    await page.getByRole('alert').getByText('Sorry, something went wrong. Please try again later.').waitFor();
    // The layout stays around the error.
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // With no network the page says so, and what still works, rather than that something went wrong.
    await page.unroute('**/api/token-user/**');
    await page.route('**/api/token-user/**', (route) => route.abort('internetdisconnected'));
    await page.goto(`${server.baseUrl}/reset-password/some-token`);
    await page.getByRole('status').getByText('You’re offline.').waitFor();
    expect(await page.getByText('Sorry, something went wrong.', { exact: false }).count()).toBe(0);
  });

  it('shows the top loader only when a route change takes longer than 800 ms', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.baseUrl);
    // Hold the next page's code back for 1.5 s.
    await page.route('**/assets/terms-page-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    const started = Date.now();
    await page.getByRole('link', { name: 'Privacy policy & terms of service' }).click();
    await page.getByRole('progressbar', { name: 'Loading page' }).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    await page.waitForURL('**/terms');
    await page.getByRole('progressbar', { name: 'Loading page' }).waitFor({ state: 'detached' });
  });
});

describe('what loads with a landing page', () => {
  it("loads the next page's schemas, the menus and the login only once the visitor acts on the page", async () => {
    const { page } = await newPage(browser, mobileViewport);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // Code a visitor may use next, each by the name of its chunk; the player's store (with zod)
    // loaded with the update prompt on every page before (issue 24).
    const later = /\/assets\/(registry|mobile-menu|login-dialog|player-store|mailing-list-signup)-/;
    await page.goto(server.baseUrl);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The page settles (the service worker registers) and stays untouched for a while.
    await page.waitForFunction(() => navigator.serviceWorker.getRegistration().then(Boolean));
    await page.waitForTimeout(3000);
    expect(scripts.filter((script) => later.test(script))).toEqual([]);

    await page.getByRole('heading', { level: 1 }).click();
    await expect
      .poll(
        () =>
          ['registry', 'mobile-menu', 'login-dialog'].filter((name) => scripts.some((s) => s.includes(`/${name}-`))),
        {
          timeout: 15_000,
        },
      )
      .toEqual(['registry', 'mobile-menu', 'login-dialog']);
    expect(scripts.filter((script) => /\/assets\/player-store-/.test(script))).toEqual([]);
  });
});

describe('installable PWA', () => {
  it('has a manifest with name, theme colour and 192/512/maskable icons, and no installability errors', async () => {
    const manifest = (await server.client().get('/manifest.webmanifest')).json as {
      name: string;
      theme_color: string;
      icons: { sizes: string; purpose?: string }[];
    };
    expect(manifest.name).toBe('Soundcause');
    expect(manifest.theme_color).toBe('#4c2a85');
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);

    const { context, close } = await launchPersistent();
    try {
      const page = await context.newPage();
      await page.goto(server.baseUrl);
      await page.evaluate(() => navigator.serviceWorker.ready);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: unknown[];
      };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('still shows the app when reloaded offline', async () => {
    const { context, close } = await launchPersistent(mobileViewport);
    try {
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/about`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
        }
      });
      await context.setOffline(true);
      // The site's settings cannot be fetched offline; the shell carries on with its defaults. The page
      // view is not sent when navigator.onLine says offline, but Chromium's offline emulation leaves
      // it true in a reloaded document, so its beacon fails here (and only here).
      allowConsoleErrors(page, /ERR_INTERNET_DISCONNECTED .*\/api\/(site|analytics\/pageview)\)$/);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByRole('button', { name: 'Open menu' }).waitFor();
      await page.goto(`${server.baseUrl}/howitworks`);
      await page.getByRole('heading', { name: 'How it works' }).first().waitFor();
      await page.screenshot({ path: path.join(os.tmpdir(), 'soundcause-offline-390.png') });
    } finally {
      await context.setOffline(false);
      await close();
    }
  });

  it('offers to reload when a new version is deployed, and waits for the music to stop before it does', async () => {
    // Serve a copy of the build so it can be "redeployed" under the running page.
    const distCopy = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-dist-'));
    fs.cpSync(path.resolve('dist'), distCopy, { recursive: true });
    const deployed = await startAppServer({ CLIENT_DIST_DIR: distCopy });
    const owner = await verifiedUser(deployed, 'update-listener@example.org');
    // Long enough to still be playing when the update is accepted.
    const uploads = await uploadListenableMusic(owner, [60]);
    const album = await createFundraiser(owner, { details: { name: 'Long Listen' }, uploads });
    await deployed.jobs.drain();
    const { context, close } = await launchPersistent();
    try {
      const page = await context.newPage();
      await logIn(page, deployed.baseUrl, 'update-listener@example.org');
      await page.evaluate(() => navigator.serviceWorker.ready);
      expect(await page.getByText('A new version of the site is available.').count()).toBe(0);
      await page.goto(`${deployed.baseUrl}/music/album/${album.id}`);
      await page.getByRole('button', { name: 'Play Track 1' }).click();
      const player = page.getByRole('region', { name: 'Music player' });
      await player.getByRole('button', { name: 'Pause' }).waitFor();

      // A new deploy changes the service worker script.
      const swPath = path.join(distCopy, 'sw.js');
      fs.appendFileSync(swPath, '\n// next release\n');
      precompress(distCopy); // as the build does, so the .br/.gz copies are the new worker too
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      await page.getByText('A new version of the site is available.').waitFor({ timeout: 20_000 });
      // Accepted while a track plays: nothing reloads until the music stops. Proven by the music
      // playing on for two more seconds in the same document (a reload would lose the marker),
      // with the new worker still waiting rather than told to take over.
      const seek = player.getByRole('slider', { name: 'Seek' });
      const playedSeconds = async () => {
        const [minutes, seconds] = ((await seek.getAttribute('aria-valuetext')) ?? '').split(' of ')[0]!.split(':');
        return Number(minutes) * 60 + Number(seconds);
      };
      await page.evaluate(() => Object.assign(window, { beforeAccepting: true }));
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByText('The new version loads when the music stops.').waitFor();
      const acceptedAt = await playedSeconds();
      // Generous: on a busy machine the stream may stall for a moment on the way.
      await expect.poll(playedSeconds, { timeout: 20_000 }).toBeGreaterThanOrEqual(acceptedAt + 2);
      expect(await page.evaluate(() => 'beforeAccepting' in window)).toBe(true);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(
        true,
      );
      expect(await player.getByRole('button', { name: 'Pause' }).count()).toBe(1);
      await Promise.all([page.waitForEvent('load'), player.getByRole('button', { name: 'Pause' }).click()]);
      await page.getByRole('heading', { level: 1, name: 'Long Listen' }).waitFor();
      expect(await page.getByText('A new version of the site is available.').count()).toBe(0);
    } finally {
      await close();
      await deployed.close();
      fs.rmSync(distCopy, { recursive: true, force: true });
    }
  });
});
