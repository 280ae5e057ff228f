import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { fillForm, newPage, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser } from '../fixtures/fundraisers';
import { imageForm, png } from '../fixtures/images';
import { registerUser, strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

const guestPages = [
  '/',
  '/browse',
  '/browse/artists',
  '/howitworks',
  '/for-artists',
  '/about',
  '/contact',
  '/terms',
  '/support',
  '/login',
  '/signup',
  '/fundraisers/new',
];
const userPages = [
  '/user',
  '/user/verify-email',
  '/artists/user',
  '/music/albums/past-donations',
  '/fundraisers/user',
  '/account/giving',
];

let server: TestServer;
let browser: Browser;
useAppAndBrowser(async (startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
  await registerUser(server.client(), 'a11y@example.org');
});

describe('accessibility (axe-core, serious and critical rules)', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['390px phone', mobileViewport],
  ] as const) {
    it(`has no serious violations on the guest pages, ${name}`, async () => {
      const { page } = await newPage(browser, viewport);
      const found: Record<string, string[]> = {};
      for (const path of guestPages) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    });

    it(`has no serious violations on the account pages and open menus, ${name}`, async () => {
      const { page } = await newPage(browser, viewport);
      await page.goto(`${server.baseUrl}/login`);
      await fillForm(page, { Email: 'a11y@example.org', Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      const found: Record<string, string[]> = {};
      for (const path of userPages) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      const menuButton =
        name === 'desktop'
          ? page.getByRole('button', { name: /Account menu/ })
          : page.getByRole('button', { name: 'Open menu' });
      await menuButton.click();
      await page.getByRole(name === 'desktop' ? 'menu' : 'dialog').waitFor();
      const menuViolations = await seriousViolations(page);
      if (menuViolations.length) found['open menu'] = menuViolations;
      expect(found).toEqual({});
    });
  }

  it('has no serious violations on the artist pages with content, at both widths', async () => {
    const owner = await verifiedUser(server, 'a11y-artist@example.org');
    const form = imageForm(await png(), 'face.png', 'image/png');
    const { id: profileImage } = (await owner.post('/api/uploads/image', { multipart: form })).json as { id: string };
    const created = await owner.post('/api/artists/new', {
      json: {
        name: 'Accessible Band',
        description: 'Songs for everyone.',
        profileImage,
        website: 'https://a11y.example.org',
      },
    });
    const { id } = created.json as { id: number };
    await owner.request('PATCH', `/api/artists/${id}/publish`);
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const { page } = await newPage(browser, viewport);
      await page.goto(`${server.baseUrl}/login`);
      await fillForm(page, { Email: 'a11y-artist@example.org', Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      const found: Record<string, string[]> = {};
      for (const path of [
        '/artists/new',
        '/artists/user',
        '/artists/accessible-band',
        `/artists/user/${id}/edit`,
        '/browse/artists?searchTerm=access',
      ]) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await pageSettled(page);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    }
  });

  it('has no serious violations on the fundraiser pages with content, at both widths', async () => {
    const email = 'a11y-fundraiser@example.org';
    const owner = await verifiedUser(server, email);
    const published = await createFundraiser(owner, {
      details: { name: 'Accessible Album', youtubeLink: 'dQw4w9WgXcQ' },
      publish: true,
    });
    const draft = await createFundraiser(owner, { details: { name: 'Accessible Draft' } });
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const { page } = await newPage(browser, viewport);
      // The video embed answers from here: no request leaves the machine.
      await page.route(/youtube-nocookie\.com/, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>video</title></html>' }),
      );
      await page.goto(`${server.baseUrl}/login`);
      await fillForm(page, { Email: email, Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      const found: Record<string, string[]> = {};
      for (const path of [
        `/projects/${published.urlSlug}`,
        `/projects/${draft.urlSlug}`,
        '/fundraisers/user',
        `/fundraisers/user/${published.id}`,
        `/fundraisers/user/${draft.id}`,
      ]) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await pageSettled(page);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      // The publish dialog, open.
      await page.goto(`${server.baseUrl}/projects/${draft.urlSlug}`);
      await page.locator('main').getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('dialog').waitFor();
      const dialogViolations = await seriousViolations(page);
      if (dialogViolations.length) found['publish dialog'] = dialogViolations;
      expect(found).toEqual({});
    }
  });

  it('can be used from the keyboard: skip link, then the login form, with visible focus', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await skip.evaluate((element) => getComputedStyle(element).top)).not.toBe('-100px');
    await page.keyboard.press('Enter');
    // From main, the next Tab stops are the login form's fields.
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.getAttribute('type')).toBe('email');
    const ring = await focused.evaluate((element) => getComputedStyle(element).boxShadow);
    expect(ring).not.toBe('none');
    await page.keyboard.type('a11y@example.org');
    await page.keyboard.press('Tab');
    await page.keyboard.type(strongPassword);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/`);
  });
});
