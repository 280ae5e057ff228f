import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Fundraiser, fundraiserReachSchema, fundraiserSchema } from '../../shared/answers/fundraisers';
import { EMBED_FRAME, type EmbedOptions, embedCode, embedUrl } from '../../shared/embed';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, newContext, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { futureExpiry } from '../fixtures/test-cards';
import { type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// The embedded player in Chromium (issue 28; DESIGN.md wave 3, "embeds"), as a fan meets it: in a
// page of another site (a second local port, so another origin) that pasted the oEmbed answer's
// code and two more sizes and themes. It plays a preview and the next one with the Media Session
// set, its Donate link opens the site's donate page in a new tab, and a donation made there is
// counted for the owner as one from the embed. The same page trying to frame the site's own pages
// is refused by the browser. Both themes pass axe; screenshots of the host page at 1280 px and
// 390 px go to /tmp/embed-*.png for a person to look at.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const OWNER = 'embed-owner@example.org';
const NAME = 'Songs from Elsewhere';
let owner: TestClient;
let published: Fundraiser;
let hostSite: http.Server;
/** The other site's page that embeds the player, and tries to frame the site itself. */
let hostPageUrl: string;

/** What oEmbed answers, as far as a consumer pastes it (oembed.com, section 2.3.4). */
const oEmbedSchema = z.object({ type: z.literal('rich'), html: z.string(), width: z.int(), height: z.int() });

/**
 * What Chromium logs in the host page for each frame the site refuses, naming only the site's
 * origin (not the page's path) and the policy it obeyed: the CSP's frame-ancestors. The site's
 * X-Frame-Options says the same to older browsers; Chromium ignores it when CSP speaks.
 */
const refusedFrame = () =>
  new RegExp(
    `^Framing '${escapeRegExp(new URL(server.baseUrl).origin)}/' violates the following Content Security Policy directive: "frame-ancestors 'none'". The request has been blocked.`,
  );

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What WordPress puts after `#?secret=` in a frame's address. */
const WORDPRESS_SECRET = 'Kq3xP9aZ2m';

/** The players the host page embeds, each in a figure of its own to find it by. */
const PLAYERS: { id: string; options: EmbedOptions }[] = [
  { id: 'compact-light', options: { size: 'compact', theme: 'light' } },
  { id: 'full-dark', options: { size: 'full', theme: 'dark' } },
];

beforeAll(async () => {
  owner = await verifiedUser(server, OWNER);
  const created = await createFundraiser(owner, {
    details: { name: NAME },
    // Long enough to hear time pass in each preview.
    uploads: await uploadListenableMusic(owner, [12, 10]),
    publish: true,
  });
  await server.jobs.drain();
  published = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${created.id}`)).json);
  expect(published.tracksList.map((track) => Boolean(track.previewPath))).toEqual([true, true]);

  const origin = new URL(server.baseUrl).origin;
  const slug = published.urlSlug!;
  const oEmbedAnswer = await server
    .client()
    .get(`/api/oembed?${new URLSearchParams({ url: `${origin}/projects/${slug}`, format: 'json' })}`);
  expect(oEmbedAnswer.status, oEmbedAnswer.text).toBe(200);
  const oEmbed = oEmbedSchema.parse(oEmbedAnswer.json);
  const title = `${NAME} by ${published.artist.name}`;
  // A blog post: the oEmbed code as a CMS pastes it, two more as the Share dialog gives them, and
  // two frames of the site's own pages, which must stay empty.
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A post on another site</title><link rel="icon" href="data:,">
<style>body{font-family:sans-serif;margin:16px auto;max-width:720px;padding:0 12px}figure{margin:16px 0}
#site-home,#site-fundraiser{display:block;box-sizing:border-box;width:100%;max-width:480px;margin:16px 0}</style></head>
<body><h1>Music worth passing on</h1><p>Three players for one fundraiser, pasted into a post.</p>
<figure id="oembed">${oEmbed.html}<figcaption>From oEmbed</figcaption></figure>
${PLAYERS.map(
  ({ id, options }) =>
    `<figure id="${id}">${embedCode(origin, slug, title, options)}<figcaption>${options.size}, ${options.theme}</figcaption></figure>`,
).join('\n')}
<h2>The site itself, framed</h2>
<iframe id="site-home" src="${origin}/" title="The site's home page" width="480" height="200"></iframe>
<iframe id="site-fundraiser" src="${origin}/projects/${slug}" title="The fundraiser's page" width="480" height="200"></iframe>
</body></html>`;
  // WordPress's way (wp_filter_oembed_result): scripts only, no popups, an opaque origin, and a
  // secret in the address for the "link" message its page answers by opening the link.
  const wordpress = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A WordPress post</title><link rel="icon" href="data:,"></head>
<body><h1>On WordPress</h1>
<iframe id="sandboxed" sandbox="allow-scripts" security="restricted" src="${embedUrl(origin, slug)}#?secret=${WORDPRESS_SECRET}"
 title="${title}" width="480" height="460"></iframe>
<script>window.messages = []; addEventListener('message', (event) => window.messages.push(event.data));</script>
</body></html>`;
  hostSite = http.createServer((request, response) => {
    const page = request.url === '/post' ? html : request.url === '/wordpress' ? wordpress : undefined;
    if (page === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => hostSite.listen(0, '127.0.0.1', resolve));
  hostPageUrl = `http://127.0.0.1:${(hostSite.address() as AddressInfo).port}/post`;
  expect(new URL(hostPageUrl).origin).not.toBe(origin);
});

afterAll(async () => {
  hostSite?.closeAllConnections();
  await new Promise((resolve) => hostSite?.close(resolve));
});

/** Opens the host page, which logs the two refused frames and nothing else. */
async function openHostPage(page: Page) {
  allowConsoleErrors(page, refusedFrame());
  await page.goto(hostPageUrl);
}

/** The document inside the player of figure `id`, once its script has run. */
async function playerFrame(page: Page, id: string): Promise<Frame> {
  const element = page.locator(`#${id} iframe`);
  // The embed code asks for lazy loading: a player far down the post loads as it comes near.
  await element.scrollIntoViewIfNeeded();
  const frame = (await (await element.elementHandle())!.contentFrame())!;
  await frame.locator('main.embed').waitFor();
  await frame.waitForLoadState('load');
  return frame;
}

const mediaTitle = (frame: Frame) => frame.evaluate(() => navigator.mediaSession.metadata?.title);

/**
 * The player of `frame` plays `name`, `length` long: its button says Pause, the Media Session
 * names it, and its position moves past 0:00 in that preview (the length tells it from the last).
 */
async function hears(frame: Frame, name: string, length: string) {
  await frame
    .locator('.embed-play')
    .and(frame.getByRole('button', { name: `Pause preview of ${name}` }))
    .waitFor();
  await expect.poll(() => frame.locator('.embed-now-name').textContent()).toBe(name);
  await expect
    .poll(() => frame.getByRole('slider', { name: 'Position in the preview' }).getAttribute('aria-valuetext'), {
      timeout: 10_000,
    })
    .toMatch(new RegExp(`^0:(0[1-9]|[1-5]\\d) of ${length}$`));
  expect(await frame.locator('.embed-time').textContent()).not.toBe('0:00');
  expect(await mediaTitle(frame)).toBe(name);
  expect(await frame.evaluate(() => navigator.mediaSession.playbackState)).toBe('playing');
}

/** What the owner's Reach shows so far. */
async function reach() {
  const answer = await owner.get(`/api/fundraisers/${published.id}/reach`);
  expect(answer.status, answer.text).toBe(200);
  return fundraiserReachSchema.parse(answer.json);
}

describe('the embedded player on another site', () => {
  it("plays in WordPress's sandboxed frame, and hands its links to the page there", async () => {
    const { page } = await newPage(browser);
    const viewsBefore = (await reach()).embedViews;
    await page.goto(hostPageUrl.replace('/post', '/wordpress'));
    const frame = (await (await page.locator('#sandboxed').elementHandle())!.contentFrame())!;
    await frame.locator('main.embed').waitFor();
    await frame
      .getByRole('group', { name: 'Preview player' })
      .getByRole('button', { name: 'Play preview of Track 1' })
      .click();
    await hears(frame, 'Track 1', '0:12');
    // Its report arrives from an opaque origin ("null") and counts.
    await expect.poll(async () => (await reach()).embedViews).toBe(viewsBefore + 1);
    await frame.getByRole('link', { name: /^Donate/ }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { messages: unknown[] }).messages))
      .toContainEqual({
        message: 'link',
        value: `${new URL(server.baseUrl).origin}/projects/${published.urlSlug}/donate?source=embed`,
        secret: WORDPRESS_SECRET,
      });
  });

  it('plays the previews in a frame there; its Donate link opens the site, and the donation counts as from the embed', async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
    const { page } = await newPage(context);
    const before = await reach();
    await openHostPage(page);
    const frame = await playerFrame(page, 'oembed');
    const slug = published.urlSlug!;
    expect(frame.url()).toBe(embedUrl(new URL(server.baseUrl).origin, slug));
    // oEmbed's default: the full player.
    expect((await page.locator('#oembed iframe').boundingBox())!.height).toBe(EMBED_FRAME.height.full);

    // What a fan reads before anything plays.
    const title = frame.getByRole('heading', { level: 1, name: NAME });
    expect(await title.isVisible()).toBe(true);
    expect(await frame.getByRole('link', { name: `${NAME} (opens in a new tab)` }).getAttribute('target')).toBe(
      '_blank',
    );
    expect(await frame.getByText(`For ${published.supportedOrg}`).isVisible()).toBe(true);
    expect(await frame.getByText('$0.00 raised of a $1,000.00 goal').isVisible()).toBe(true);
    expect(
      await frame.getByRole('progressbar', { name: 'Progress toward the goal' }).getAttribute('aria-valuenow'),
    ).toBe('0');
    expect(await frame.locator('.embed-now-name').textContent()).toBe('Track 1');
    expect(await frame.locator('.embed-track').count()).toBe(2);

    // Play: the first preview sounds, the phone's lock screen names it, and the owner has a play.
    const player = frame.getByRole('group', { name: 'Preview player' });
    await player.getByRole('button', { name: 'Play preview of Track 1' }).click();
    await hears(frame, 'Track 1', '0:12');
    // The count is read where it lands, the owner's Reach.
    await expect.poll(async () => (await reach()).embedPlays).toBe(before.embedPlays + 1);
    expect(await frame.evaluate(() => navigator.mediaSession.metadata?.artist)).toBe(published.artist.name);
    expect(await frame.evaluate(() => navigator.mediaSession.metadata?.album)).toBe(NAME);

    // Next: the second preview, named in the player, the track list and the Media Session.
    await player.getByRole('button', { name: 'Next preview' }).click();
    await hears(frame, 'Track 2', '0:10');
    await expect.poll(async () => (await reach()).embedPlays).toBe(before.embedPlays + 2);
    expect(await frame.locator('.embed-track[aria-current="true"]').textContent()).toContain('Track 2');
    await page.locator('#oembed iframe').screenshot({ path: '/tmp/embed-playing.png' });
    await player.getByRole('button', { name: 'Pause preview of Track 2' }).click();
    await player.getByRole('button', { name: 'Play preview of Track 2' }).waitFor();

    // Donate opens the site's donate page in a new tab, marked as coming from the embed.
    const donateLink = frame.getByRole('link', { name: 'Donate (opens in a new tab)' });
    expect(await donateLink.getAttribute('target')).toBe('_blank');
    expect(await donateLink.getAttribute('href')).toMatch(/\/donate\?source=embed$/);
    const opened = context.waitForEvent('page');
    await donateLink.click();
    const donatePage = await opened;
    await donatePage.waitForURL(`${server.baseUrl}/projects/${slug}/donate?source=embed`);
    await donatePage.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
    expect(await donatePage.evaluate(() => window.opener)).toBeNull();

    // A donation with the test provider's card, from that tab.
    await fillForm(donatePage, { Name: 'Ada Embed', Email: 'embed-fan@example.org', Donation: '25' });
    await donatePage.getByRole('button', { name: 'No tip' }).click();
    const intent = donatePage.waitForRequest((request) =>
      request.url().endsWith('/api/transactions/create-payment-intent'),
    );
    await donatePage.getByRole('button', { name: 'Next' }).click();
    expect((await intent).postDataJSON()).toMatchObject({ projectId: published.id, source: 'embed' });
    await fillForm(donatePage, { 'Card number': '4242 4242 4242 4242', Expiry: futureExpiry(), CVC: '123' });
    await donatePage.getByRole('button', { name: /^Pay (now|\$)/ }).click();
    await donatePage.waitForURL(`**/projects/${slug}/donate/success?payment_intent=*`);
    await donatePage.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();

    // The owner sees what the embed brought: the player seen, previews played, a donation.
    await server.jobs.drain();
    await expect.poll(async () => (await reach()).embedDonations).toBe(1);
    const figures = await reach();
    expect(figures.embedRaisedCents).toBe(2500);
    // Each of the host page's players counts a view as it loads (lazily: at least the one played).
    // The host page's three players were each seen once.
    expect(figures.embedViews).toBeGreaterThanOrEqual(before.embedViews + 1);
    expect(figures.embedPlays).toBe(before.embedPlays + 2);
  });

  it('leaves the frames that try to show the site itself empty, and the browser says why', async () => {
    const { page } = await newPage(browser);
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (refusedFrame().test(message.text())) refusals.push(message.text());
    });
    await openHostPage(page);
    for (const id of ['site-home', 'site-fundraiser']) {
      const frame = (await (await page.locator(`#${id}`).elementHandle())!.contentFrame())!;
      // Refused, the frame shows Chromium's error page: none of the site's document ever reaches it.
      await expect.poll(() => frame.url()).toMatch(/^chrome-error:\/\//);
      expect(await frame.evaluate(() => document.querySelector('#root, main'))).toBeNull();
    }
    // One refusal for each frame, in the host page's console.
    await expect.poll(() => refusals.length).toBe(2);
    // The site's own documents are in no frame of the page.
    const appOrigin = new URL(server.baseUrl).origin;
    const framedPages = page
      .frames()
      .map((frame) => frame.url())
      .filter((url) => url.startsWith(appOrigin) && !new URL(url).pathname.startsWith('/embed/'));
    expect(framedPages).toEqual([]);
  });

  it('draws the compact player in one 120 px row and the full one in the dark theme, at 1280 px and 390 px', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      // Twice the pixels, so the screenshots show what a phone's screen does.
      const context = await newContext(browser, { viewport, deviceScaleFactor: 2 });
      const { page } = await newPage(context);
      await openHostPage(page);
      // Pictures first, of every player drawn, so a layout the checks below refuse can be seen.
      const frames = new Map<string, Frame>();
      for (const { id } of PLAYERS) {
        frames.set(id, await playerFrame(page, id));
        await page.locator(`#${id} iframe`).screenshot({ path: `/tmp/embed-${id}-${viewport.width}.png` });
      }
      await page.screenshot({ path: `/tmp/embed-host-${viewport.width}.png`, fullPage: true });
      for (const { id, options } of PLAYERS) {
        const frame = frames.get(id)!;
        const box = (await page.locator(`#${id} iframe`).boundingBox())!;
        expect(box.height, id).toBe(EMBED_FRAME.height[options.size]);
        // 100% of the column, up to the player's width.
        expect(box.width, id).toBeLessThanOrEqual(Math.min(EMBED_FRAME.width, viewport.width));
        expect(await frame.evaluate(() => document.documentElement.className)).toBe(
          `embed-${options.theme} embed-${options.size}`,
        );
        expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
          options.theme === 'dark' ? 'rgb(29, 21, 48)' : 'rgb(255, 255, 255)',
        );
        expect(await frame.getByRole('heading', { level: 1, name: NAME }).isVisible(), id).toBe(true);
        expect(await frame.locator('.embed-track').count(), id).toBe(options.size === 'full' ? 2 : 0);
        // What a fan needs is inside the frame, not cut off by it.
        const controls = ['.embed-title', '.embed-play', '.embed-next', '.embed-donate'];
        const outside = await frame.evaluate(
          (selectors) =>
            selectors.filter((selector) => {
              const rect = document.querySelector(selector)!.getBoundingClientRect();
              return rect.left < 0 || rect.top < 0 || rect.right > innerWidth || rect.bottom > innerHeight;
            }),
          controls,
        );
        expect(outside, `${id} at ${viewport.width} px`).toEqual([]);
        // A seek bar the layout shows is long enough to drag, not a thumb squeezed between its neighbours.
        const seekWidth = await frame.evaluate(() => {
          const seek = document.querySelector('.embed-seek')!;
          return getComputedStyle(seek).display === 'none' ? null : seek.getBoundingClientRect().width;
        });
        if (seekWidth !== null)
          expect(seekWidth, `${id}'s seek bar at ${viewport.width} px`).toBeGreaterThanOrEqual(48);
      }
      // Nothing of the post sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    }
  });

  it('passes axe in both themes and sizes, opened on its own', async () => {
    const { page } = await newPage(browser, { width: EMBED_FRAME.width, height: EMBED_FRAME.height.full });
    const origin = new URL(server.baseUrl).origin;
    const found: Record<string, string[]> = {};
    for (const size of ['full', 'compact'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width: EMBED_FRAME.width, height: EMBED_FRAME.height[size] });
        await page.goto(embedUrl(origin, published.urlSlug!, { size, theme }));
        await page.locator('main.embed').waitFor();
        await page.waitForLoadState('load');
        // Serious and critical as on every page (which also loads axe into it); then every rule,
        // with WCAG 2.2's target size, which Lighthouse's accessibility score counts (bench/lighthouse.ts).
        const serious = await seriousViolations(page);
        const reported = serious.map((line) => line.split(':')[0]!);
        const rest = await page.evaluate(async (reported) => {
          type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
          type Axe = { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
          const { axe } = window as unknown as { axe: Axe };
          const { violations } = await axe.run(document, { rules: { 'target-size': { enabled: true } } });
          return violations
            .filter((violation) => !reported.includes(violation.id))
            .map(
              (violation) =>
                `${violation.id} (${violation.impact}): ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
            );
        }, reported);
        if (serious.length || rest.length) found[`${size} ${theme}`] = [...serious, ...rest];
      }
    }
    expect(found).toEqual({});
  });
});
