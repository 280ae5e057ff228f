import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { shareCountSchema } from '../../shared/answers/fundraisers';
import { embedCode, embedTitle, embedUrl, EMBED_FRAME } from '../../shared/embed';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { logIn, newContext, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

// The Share dialog in Chromium (issue 28; DESIGN.md wave 3, "shares"): a visitor copies the
// fundraiser's link and the embed code (choosing size and theme, with the live preview) at a
// phone's width and a desktop's, and each copy is a share the server counts once per visitor and
// hour; the owner then reads "Shared 1 time" in the manage page's Reach. The phone's share sheet
// is simulated (Chromium on Linux has no Web Share API): a share counts, a cancelled one does
// not. A draft has no Share button. SHOT_DIR=/tmp keeps screenshots of the dialog.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const OWNER = 'share-owner@example.org';
const NAME = 'Songs to Pass On';
let published: Fundraiser;
let draft: Fundraiser;

beforeAll(async () => {
  const owner = await verifiedUser(server, OWNER);
  const uploads = await uploadMusic(owner);
  published = await createFundraiser(owner, { details: { name: NAME }, uploads, publish: true });
  draft = await createFundraiser(owner, { details: { name: 'Not Out Yet' }, uploads });
});

const desktopViewport = { width: 1280, height: 800 };

async function shot(page: Page, name: string) {
  if (!process.env.SHOT_DIR) return;
  fs.mkdirSync(process.env.SHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${process.env.SHOT_DIR}/${name}.png` });
}

/** Nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** The next answer to POST /api/fundraisers/{id}/shares, as the server's count. */
function nextShare(page: Page, id: number) {
  return page
    .waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === `/api/fundraisers/${id}/shares`,
    )
    .then(async (response) => {
      expect(response.status()).toBe(200);
      return shareCountSchema.parse(await response.json()).shareCount;
    });
}

async function openShareDialog(page: Page) {
  await page.locator('main').getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Share ${NAME}` });
  await dialog.waitFor();
  return dialog;
}

describe('the Share dialog in Chromium', () => {
  it('copies the link and the embed code at 390 px and 1280 px, one share counted; the owner sees it', async () => {
    const origin = new URL(server.baseUrl).origin;
    const link = `${origin}/projects/${published.urlSlug}`;
    const slug = published.urlSlug!;
    // One visitor, one browser, through both widths: every copy is theirs.
    const context = await newContext(browser, { viewport: mobileViewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const { page } = await newPage(context);
    // The dialog is not part of the landing page's first load (scripts/bundle-budget.mjs).
    const shareChunks: string[] = [];
    page.on('request', (request) => {
      if (/\/share-dialog[^/]*\.js$/.test(new URL(request.url()).pathname)) shareChunks.push(request.url());
    });
    await page.goto(`${server.baseUrl}/projects/${slug}`);
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await main.getByRole('link', { name: 'Donate' }).waitFor();
    expect(shareChunks).toEqual([]);

    for (const [index, viewport] of [mobileViewport, desktopViewport].entries()) {
      const width = viewport.width;
      await page.setViewportSize(viewport);
      const dialog = await openShareDialog(page);
      expect(shareChunks.length).toBe(1);

      // The link: read-only, copied, confirmed in a polite live region, counted.
      const field = dialog.getByLabel('Link to this fundraiser');
      expect(await field.inputValue()).toBe(link);
      expect(await field.getAttribute('readonly')).not.toBeNull();
      const linkCounted = nextShare(page, published.id);
      await dialog.getByRole('button', { name: 'Copy link' }).click();
      await dialog.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      // Once per visitor and hour: the copy at the second width is not a second share.
      expect(await linkCounted).toBe(1);
      // No share sheet on a Linux desktop browser: no button for one.
      expect(await dialog.getByRole('button', { name: 'Share…' }).count()).toBe(0);

      // The embed: full and light to begin with, as the embed code's defaults.
      const size = dialog.getByRole('group', { name: 'Size' });
      const theme = dialog.getByRole('group', { name: 'Theme' });
      expect(await size.getByRole('radio', { name: /Full/ }).isChecked()).toBe(true);
      expect(await theme.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
      const preview = dialog.locator('iframe');
      expect(await preview.getAttribute('src')).toBe(embedUrl(origin, slug));
      expect(await preview.getAttribute('title')).toBe(`Preview of the player for ${NAME}`);
      expect(await preview.getAttribute('height')).toBe(String(EMBED_FRAME.height.full));
      // Its frame fits the dialog on a phone, at most the player's width on a desktop.
      const frameWidth = (await preview.boundingBox())!.width;
      expect(frameWidth).toBeLessThanOrEqual(Math.min(EMBED_FRAME.width, width));
      if (width > 600) expect(frameWidth).toBe(EMBED_FRAME.width);
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `share-dialog-${width}`);

      await size.getByRole('radio', { name: /Compact/ }).check();
      await theme.getByRole('radio', { name: 'Dark' }).check();
      const chosen = { size: 'compact', theme: 'dark' } as const;
      // Titled as oEmbed titles it: what a screen reader calls the frame on the other site.
      const code = embedCode(origin, slug, embedTitle(published, 'Soundcause'), chosen);
      await expect.poll(() => dialog.getByLabel('Embed code').inputValue()).toBe(code);
      await expect.poll(() => preview.getAttribute('src')).toBe(embedUrl(origin, slug, chosen));
      expect(await preview.getAttribute('height')).toBe(String(EMBED_FRAME.height.compact));
      // The preview is the real embed page, drawn in its frame.
      await page.frameLocator('.share-preview iframe').getByText(NAME).first().waitFor();

      const codeCounted = nextShare(page, published.id);
      await dialog.getByRole('button', { name: 'Copy embed code' }).click();
      await dialog.getByRole('status').filter({ hasText: 'Embed code copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      expect(await codeCounted).toBe(1);
      await expectNoSidewaysScroll(page);
      await dialog.getByRole('button', { name: 'Copy embed code' }).scrollIntoViewIfNeeded();
      await shot(page, `share-dialog-${width}-embed`);

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Focus returns to the Share button it came from: Radix gives it back as the dialog's
      // effects are cleaned up, which may be a task after the dialog has left the page.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Share');
      if (index === 0) await expectNoSidewaysScroll(page);
    }

    // The owner's manage page: the same Share button, and the reach so far.
    const { page: ownerPage } = await newPage(browser);
    await logIn(ownerPage, server.baseUrl, OWNER);
    await ownerPage.goto(`${server.baseUrl}/fundraisers/user/${published.id}`);
    const ownerMain = ownerPage.locator('main');
    await ownerMain.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await ownerMain.getByRole('button', { name: 'Share', exact: true }).waitFor();
    const reach = ownerMain.getByRole('region', { name: 'Reach' });
    await expect.poll(() => reach.innerText()).toMatch(/Shared\s+1 time\b/);
    expect(await reach.innerText()).toMatch(/Embedded player\s+[\d,]+ views? · [\d,]+ preview plays?/);
    expect(await reach.innerText()).toMatch(/Donations from embeds\s+None yet/);
  });

  it("hands the link to the phone's share sheet; a cancelled share counts nothing", async () => {
    const context = await newContext(browser, { viewport: mobileViewport });
    // Chromium on Linux lacks navigator.share; a phone's share sheet, outside the page, is stood in
    // for here: it records what it was given, and is cancelled when the test says so.
    await context.addInitScript(() => {
      const sheet = { given: [] as ShareData[], cancel: false };
      Object.assign(window, { shareSheet: sheet });
      navigator.share = async (data?: ShareData) => {
        if (sheet.cancel) throw new DOMException('Share canceled', 'AbortError');
        sheet.given.push(data ?? {});
      };
    });
    const { page } = await newPage(context);
    const shareRequests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/fundraisers/${published.id}/shares`))
        shareRequests.push(request.url());
    });
    await page.goto(`${server.baseUrl}/projects/${published.urlSlug}`);
    const dialog = await openShareDialog(page);

    const counted = nextShare(page, published.id);
    await dialog.getByRole('button', { name: 'Share…' }).click();
    await counted;
    const given = await page.evaluate(
      () => (window as unknown as { shareSheet: { given: ShareData[] } }).shareSheet.given,
    );
    expect(given).toEqual([
      {
        title: NAME,
        text: `Listen to ${NAME} by ${published.artist.name} and give to ${published.supportedOrg}.`,
        url: `${new URL(server.baseUrl).origin}/projects/${published.urlSlug}`,
      },
    ]);

    await page.evaluate(() => {
      (window as unknown as { shareSheet: { cancel: boolean } }).shareSheet.cancel = true;
    });
    await dialog.getByRole('button', { name: 'Share…' }).click();
    // The sheet's refusal has been handled by the next frame: nothing is said.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await dialog.getByRole('status').first().innerText()).toBe('');
    // A copy after the cancel is counted; had the cancel been, its request would have come first.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(server.baseUrl).origin,
    });
    const copied = nextShare(page, published.id);
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await copied;
    expect(shareRequests.length).toBe(2);
    expect(await dialog.getByRole('status').first().innerText()).toBe('Link copied');
  });

  it('offers no Share button for a draft', async () => {
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, OWNER);
    await page.goto(`${server.baseUrl}/projects/${draft.urlSlug}`);
    const main = page.locator('main');
    await main.getByText('status: Draft').waitFor();
    expect(await main.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    await page.goto(`${server.baseUrl}/fundraisers/user/${draft.id}`);
    await main.getByRole('heading', { level: 1, name: 'Not Out Yet' }).waitFor();
    expect(await main.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    expect(await main.getByRole('region', { name: 'Reach' }).count()).toBe(0);
  });
});
