import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { adminInsightSchema, type FundraiserInsight, fundraiserInsightSchema } from '../../shared/answers/insight';
import { trackUrls } from '../../shared/answers/library';
import { downloadFormats, isDownloadFormat } from '../../shared/download-formats';
import { formatCount } from '../../shared/format-count';
import { formatCents, plainDollars } from '../../shared/money';
import { fundraiserTracks } from '../../server/db/schema';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { donate } from '../fixtures/donations';
import { logIn, newContext, newPage, pageSettled, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { adminClient, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Insight in Chromium (issue 29): at a desktop's width and a phone's, the owner goes from the
// manage page to the fundraiser's dashboard, where each chart is drawn (screenshots in
// /tmp/insight-shots, or SHOT_DIR, for review by eye), reads as a table holding what the API
// answers for the same period and back as a chart, follows the period chosen in the address (7 and
// 90 days, all time, reload; Back leaves the page rather than walking the periods) and downloads as
// a CSV; uPlot is not loaded before. An admin reads the site's Insight tab with its top fundraisers
// (linked to their pages, a draft's name alone) and money per week as bars. A fundraiser's page
// fetches its preview only when played, so a visit counts no play. Axe finds nothing serious anywhere.

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

const OWNER = 'insight-owner@example.org';
const ADMIN = 'insight-admin@example.org';
const NAME = 'Songs to Count On';
const SHOT_DIR = process.env.SHOT_DIR ?? '/tmp/insight-shots';
const DAY_MS = 24 * 60 * 60 * 1000;

let owner: TestClient;
let admin: TestClient;
let fundraiser: Fundraiser;
/** A fundraiser never published (so with no page), that a payment row names all the same. */
let draft: Fundraiser;

/** A request as a media element or a download manager makes it. */
async function fetchMedia(client: TestClient, pathname: string, headers: Record<string, string> = {}) {
  const cookie = client.cookieHeader();
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    headers: { 'x-forwarded-for': client.ip, ...(cookie ? { cookie } : {}), ...headers },
  });
  await response.arrayBuffer();
  expect(response.ok, pathname).toBe(true);
}

beforeAll(async () => {
  owner = await verifiedUser(server, OWNER);
  admin = await adminClient(server, ADMIN);
  fundraiser = await createFundraiser(owner, {
    details: { name: NAME },
    uploads: await uploadMusic(owner, 1),
    publish: true,
  });
  await server.jobs.drain();

  // Money today, and ten, forty, seventy-five and 124 days ago (as the journal keeps them), so 7,
  // 30 and 90 days and all time each hold different days, and all time spans months (from late July).
  await donate(server, { fundraiserId: fundraiser.id, email: 'one@example.org', donationCents: 1500 });
  await donate(server, { fundraiserId: fundraiser.id, email: 'two@example.org', donationCents: 2500, tipCents: 300 });
  const journal = server.sqlite.prepare(
    `insert into money_journal (provider_id, kind, fundraiser_id, charity_ein, charity_cents, occurred_at)
     values (?, 'charge', ?, '530196605', ?, ?)`,
  );
  journal.run('pi_insight_e2e_10', fundraiser.id, 4200, Date.now() - 10 * DAY_MS);
  journal.run('pi_insight_e2e_40', fundraiser.id, 900, Date.now() - 40 * DAY_MS);
  journal.run('pi_insight_e2e_75', fundraiser.id, 1800, Date.now() - 75 * DAY_MS);
  journal.run('pi_insight_e2e_124', fundraiser.id, 600, Date.now() - 124 * DAY_MS);
  draft = await createFundraiser(owner, {
    details: { name: 'Songs Not Yet Out' },
    uploads: await uploadMusic(owner, 1),
  });
  journal.run('pi_insight_e2e_draft', draft.id, 700, Date.now() - 3 * DAY_MS);

  // Listening and downloads, counted as the server sends them.
  const visitor = server.client();
  const track = server.db
    .select()
    .from(fundraiserTracks)
    .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
    .all()[0]!;
  const preview = trackUrls.preview(track.id, track.previewFile!.replace(/\.mp3$/, ''));
  await fetchMedia(visitor, preview);
  await fetchMedia(server.client(), preview, { range: 'bytes=0-' });
  await fetchMedia(owner, trackUrls.stream(track.id, track.streamFile!.replace(/\.mp3$/, '')));
  await fetchMedia(owner, `/api/fundraisers/${fundraiser.id}/download`);
  await fetchMedia(owner, `/api/tracks/${track.id}/download`);

  // Visits to its page from other sites, from nowhere, and to its embedded player.
  const page = `/projects/${fundraiser.urlSlug}`;
  for (const referrer of ['news.example.com', 'news.example.com', 'blog.example.org', '']) {
    expect((await visitor.post('/api/analytics/pageview', { json: { path: page, referrer } })).status).toBe(204);
  }
  for (const kind of ['view', 'view', 'play']) {
    await visitor.post(`/api/fundraisers/${fundraiser.id}/embed-events?kind=${kind}`);
  }
});

async function insightOf(days: string): Promise<FundraiserInsight> {
  const answer = await owner.get(`/api/fundraisers/${fundraiser.id}/insight?days=${days}`);
  expect(answer.status, answer.text).toBe(200);
  return fundraiserInsightSchema.parse(answer.json);
}

const sourceNames: Record<string, string> = {
  embed: 'Embedded player',
  site: 'Elsewhere on Soundcause',
  direct: 'Direct or unknown',
};

/** Each chart's table as the page should show it: the header, then each row's cells (dates as ISO). */
function expectedTables(insight: FundraiserInsight): Record<string, string[][]> {
  const { days } = insight;
  let soFar = insight.raisedBeforeCents;
  return {
    'Raised per day': [['Date', 'Raised'], ...days.map((day) => [day.date, formatCents(day.raisedCents)])],
    'Raised toward the goal': [
      ['Date', 'Raised so far'],
      ...days.map((day) => [day.date, formatCents((soFar += day.raisedCents))]),
    ],
    'Donations per day': [['Date', 'Donations'], ...days.map((day) => [day.date, formatCount(day.donations)])],
    Listening: [
      ['Date', 'Preview plays', 'Full streams'],
      ...days.map((day) => [day.date, formatCount(day.previewPlays), formatCount(day.streams)]),
    ],
    'Downloads per day': [['Date', 'Downloads'], ...days.map((day) => [day.date, formatCount(day.downloads)])],
    'Downloads by format': [
      ['Format', 'Downloads'],
      ...insight.formats.map((format) => [
        isDownloadFormat(format.id) ? downloadFormats[format.id].label : format.id,
        formatCount(format.downloads),
      ]),
    ],
    Views: [
      ['Date', 'Page views', 'Embed views'],
      ...days.map((day) => [day.date, formatCount(day.pageViews), formatCount(day.embedViews)]),
    ],
    'Where visits came from': [
      ['Source', 'Visits'],
      ...insight.sources.map((source) => [sourceNames[source.referrer] ?? source.referrer, formatCount(source.visits)]),
    ],
  };
}

/** A chart's panel: the section its heading names. */
const panel = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** The panel's table: its header row and body rows, a date as its `datetime`. */
function tableOf(section: Locator): Promise<string[][]> {
  return section
    .locator('table')
    .evaluate((table) =>
      [...table.querySelectorAll('tr')].map((row) =>
        [...row.children].map(
          (cell) => cell.querySelector('time')?.getAttribute('datetime') ?? cell.textContent?.trim() ?? '',
        ),
      ),
    );
}

async function shot(target: Page | Locator, name: string, fullPage = false) {
  fs.mkdirSync(SHOT_DIR, { recursive: true });
  const file = path.join(SHOT_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage });
  else {
    // In the middle of the window, clear of the sticky header.
    await target.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await target.screenshot({ path: file });
  }
}

/** Points at a chart's last day (or week): the right edge of its plot, uPlot's overlay. */
async function pointAtLast(section: Locator) {
  const box = (await section.locator('.u-over').boundingBox())!;
  await section.page().mouse.move(box.x + box.width - 2, box.y + box.height / 2);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** Whether any script the page has loaded so far holds uPlot (its cursor point's class name). */
async function hasLoadedChartLibrary(page: Page): Promise<boolean> {
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => new URL(name).pathname.endsWith('.js')),
  );
  const bodies = await Promise.all(scripts.map(async (script) => (await fetch(script)).text()));
  return bodies.some((body) => body.includes('u-cursor-pt'));
}

const desktopViewport = { width: 1280, height: 800 };
/** The viewer's own zone: a day ahead of the site's, or behind UTC. */
const viewerZones: Record<number, string> = { 1280: 'Pacific/Kiritimati', 390: 'America/Anchorage' };

describe('insight in Chromium', () => {
  for (const viewport of [desktopViewport, mobileViewport]) {
    const width = viewport.width;

    it(`shows the owner each chart of a fundraiser at ${width} px, each as the API's table, for the period in the address`, async () => {
      // A viewer far from the site's zone sees the same days (the answer's dates are the site's).
      const context = await newContext(browser, { viewport, timezoneId: viewerZones[width] });
      const { page } = await newPage(context);
      await logIn(page, server.baseUrl, OWNER);
      await page.goto(`${server.baseUrl}/fundraisers/user/${fundraiser.id}`);
      const insightLink = page.locator('main').getByRole('link', { name: 'See insight' });
      await insightLink.waitFor();
      await pageSettled(page);
      await shot(page.getByRole('region', { name: 'Reach', exact: true }), `manage-${width}-reach`);
      // uPlot comes with the insight pages, never before.
      expect(await hasLoadedChartLibrary(page)).toBe(false);
      await insightLink.click();
      await page.waitForURL(`${server.baseUrl}/fundraisers/user/${fundraiser.id}/insight`);
      await page.getByRole('heading', { level: 1, name: `Insight: ${NAME}` }).waitFor();
      await pageSettled(page);
      expect(await hasLoadedChartLibrary(page)).toBe(true);
      expect(await page.title()).toBe(`Insight: ${NAME} | Soundcause`);
      expect(await page.getByRole('radio', { name: '30 days' }).isChecked()).toBe(true);

      // As charts: each drawn, the time series as an image a screen reader hears summed up.
      const month = await insightOf('30');
      const expected = expectedTables(month);
      const raised = month.days.reduce((sum, day) => sum + day.raisedCents, 0);
      // Pointing at the chart's last day reads it in the legend.
      const lastDay = month.days.at(-1)!.date;
      const raisedChart = panel(page, 'Raised per day').getByRole('img');
      await raisedChart.scrollIntoViewIfNeeded();
      await pointAtLast(panel(page, 'Raised per day'));
      await expect
        .poll(() => panel(page, 'Raised per day').locator('.chart-legend-when').textContent())
        .toBe(new Date(`${lastDay}T12:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }));
      await page.mouse.move(0, 0);
      expect(await raisedChart.getAttribute('aria-label')).toMatch(
        new RegExp(`^Raised per day, .+: ${formatCents(raised).replace('$', '\\$')} raised in total$`),
      );
      for (const title of Object.keys(expected)) {
        const section = panel(page, title);
        await section.scrollIntoViewIfNeeded();
        expect(await section.isVisible(), title).toBe(true);
        const drawn = title === 'Downloads by format' || title === 'Where visits came from' ? '.bar-list' : 'canvas';
        expect(await section.locator(drawn).first().isVisible(), title).toBe(true);
        await shot(section, `fundraiser-${width}-${title.toLowerCase().replace(/\W+/g, '-')}`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `fundraiser-${width}-charts`, true);

      // As tables: the same figures the API answers for the same period; the button names the way back.
      for (const [title, rows] of Object.entries(expected)) {
        const section = panel(page, title);
        await section.getByRole('button', { name: 'Show as table' }).click();
        await section.getByRole('button', { name: 'Show as chart' }).waitFor();
        expect(await section.getByRole('button', { name: 'Show as table' }).count()).toBe(0);
        expect(await tableOf(section), title).toEqual(rows);
        expect(await section.locator('caption').textContent()).toMatch(/\d{4}$/);
      }
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `fundraiser-${width}-tables`, true);
      // Back to charts, but for the tables the periods below are read from.
      const keptAsTables = ['Raised per day', 'Raised toward the goal', 'Listening'];
      for (const title of Object.keys(expected).filter((title) => !keptAsTables.includes(title))) {
        const section = panel(page, title);
        await section.getByRole('button', { name: 'Show as chart' }).click();
        await section.getByRole('button', { name: 'Show as table' }).waitFor();
        expect(await section.locator('table').count(), title).toBe(0);
      }

      // Another period: the address says it, the tables follow.
      const raisedTable = panel(page, 'Raised per day');
      // Clicked, not check()ed: the radio is ticked once the address changes, a moment later.
      await page.getByRole('radio', { name: '7 days' }).click();
      await page.waitForURL(/\?days=7$/);
      await expect.poll(() => page.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);
      const week = await insightOf('7');
      await expect.poll(() => tableOf(raisedTable)).toEqual(expectedTables(week)['Raised per day']);
      expect(week.days).toHaveLength(7);
      await expect.poll(() => tableOf(panel(page, 'Listening'))).toEqual(expectedTables(week).Listening);

      // 90 days: a bar a day, still wide enough to see on a phone.
      await page.getByRole('radio', { name: '90 days' }).click();
      await page.waitForURL(/\?days=90$/);
      const quarter = await insightOf('90');
      await expect.poll(() => tableOf(raisedTable)).toEqual(expectedTables(quarter)['Raised per day']);
      await pageSettled(page);
      await shot(panel(page, 'Donations per day'), `fundraiser-${width}-90-days-donations`);
      await shot(panel(page, 'Views'), `fundraiser-${width}-90-days-views`);

      await page.getByRole('radio', { name: 'All time' }).click();
      await page.waitForURL(/\?days=all$/);
      const all = await insightOf('all');
      expect(all.days.length).toBeGreaterThan(40);
      await expect.poll(() => tableOf(raisedTable)).toEqual(expectedTables(all)['Raised per day']);
      await expect
        .poll(() => tableOf(panel(page, 'Raised toward the goal')))
        .toEqual(expectedTables(all)['Raised toward the goal']);
      await pageSettled(page);
      await shot(page, `fundraiser-${width}-all-time`, false);
      // Months on the axis, from late July: no label runs off the left or under the y axis's.
      await shot(panel(page, 'Donations per day'), `fundraiser-${width}-all-time-donations`);
      await shot(panel(page, 'Downloads per day'), `fundraiser-${width}-all-time-downloads`);

      // A reload keeps the period; Back leaves the page, since choosing a period replaced the address.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: `Insight: ${NAME}` }).waitFor();
      await pageSettled(page);
      expect(await page.getByRole('radio', { name: 'All time' }).isChecked()).toBe(true);
      await raisedTable.getByRole('button', { name: 'Show as table' }).click();
      expect(await tableOf(raisedTable)).toEqual(expectedTables(all)['Raised per day']);
      await page.goBack();
      await page.waitForURL(`${server.baseUrl}/fundraisers/user/${fundraiser.id}`);
      await page.locator('main').getByRole('link', { name: 'See insight' }).waitFor();
      await page.goForward();
      await page.waitForURL(/\?days=all$/);
      await page.getByRole('heading', { level: 1, name: `Insight: ${NAME}` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  it('fetches no preview when a fundraiser page opens, so a visit counts no preview play; a play counts one', async () => {
    const previewPlays = async () => (await insightOf('all')).days.reduce((sum, day) => sum + day.previewPlays, 0);
    const before = await previewPlays();
    const { page } = await newPage(browser, desktopViewport);
    const previewRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/preview')) previewRequests.push(request.url());
    });
    await page.goto(`${server.baseUrl}/projects/${fundraiser.urlSlug}`);
    const audio = page.locator('.fundraiser-preview audio');
    await audio.waitFor();
    await pageSettled(page);
    expect(await audio.getAttribute('preload')).toBe('none');
    expect(previewRequests).toEqual([]);
    expect(await previewPlays()).toBe(before);

    // Pressed: the browser asks for it, and the server counts the play.
    await audio.evaluate((element: HTMLAudioElement) => element.play());
    await expect.poll(() => previewRequests.length).toBeGreaterThan(0);
    await expect.poll(previewPlays).toBeGreaterThan(before);
  });

  it("downloads a chart's figures as a CSV named after the fundraiser, the chart and the days", async () => {
    const { page } = await newPage(browser, desktopViewport);
    await logIn(page, server.baseUrl, OWNER);
    await page.goto(`${server.baseUrl}/fundraisers/user/${fundraiser.id}/insight?days=7`);
    await page.getByRole('heading', { level: 1, name: `Insight: ${NAME}` }).waitFor();
    await pageSettled(page);
    const week = await insightOf('7');
    const first = week.days[0]!.date;
    const last = week.days.at(-1)!.date;

    const csvOf = async (title: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel(page, title).getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
    };
    const lines = (rows: string[][]) => rows.map((row) => `${row.join(',')}\r\n`).join('');

    const raised = await csvOf('Raised per day');
    expect(raised.name).toBe(`${fundraiser.urlSlug}-raised-${first}-to-${last}.csv`);
    expect(raised.text).toBe(
      lines([['Date', 'Raised (USD)'], ...week.days.map((day) => [day.date, plainDollars(day.raisedCents)])]),
    );
    const listening = await csvOf('Listening');
    expect(listening.name).toBe(`${fundraiser.urlSlug}-listening-${first}-to-${last}.csv`);
    expect(listening.text).toBe(
      lines([
        ['Date', 'Preview plays', 'Full streams'],
        ...week.days.map((day) => [day.date, String(day.previewPlays), String(day.streams)]),
      ]),
    );
    const sources = await csvOf('Where visits came from');
    expect(sources.text).toBe(
      lines([
        ['Source', 'Visits'],
        ...week.sources.map((source) => [sourceNames[source.referrer] ?? source.referrer, String(source.visits)]),
      ]),
    );
  });

  it('says what is wrong with a period the address asks for and the API refuses', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, OWNER);
    allowConsoleErrors(page, /status of 400 .*\/insight\?days=forever\)$/);
    await page.goto(`${server.baseUrl}/fundraisers/user/${fundraiser.id}/insight?days=forever`);
    await page.getByRole('alert').filter({ hasText: 'Days must be a whole number from 1 to 3650, or all.' }).waitFor();
    expect(await page.getByRole('radio', { checked: true }).count()).toBe(0);
    // A period chosen from there shows its charts.
    await page.getByRole('radio', { name: '90 days' }).click();
    await page.waitForURL(/\?days=90$/);
    await panel(page, 'Raised per day').getByRole('img').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  for (const viewport of [desktopViewport, mobileViewport]) {
    const width = viewport.width;

    it(`shows an admin the site's Insight tab at ${width} px, with the top fundraisers`, async () => {
      const { page } = await newPage(browser, viewport);
      await logIn(page, server.baseUrl, ADMIN);
      await page.goto(`${server.baseUrl}/admin`);
      await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Insight' }).click();
      await page.waitForURL(`${server.baseUrl}/admin/insight`);
      const top = panel(page, 'Top fundraisers');
      await top.locator('table').waitFor();
      await pageSettled(page);

      const answer = await admin.get('/api/admin/insight?days=30');
      expect(answer.status, answer.text).toBe(200);
      const site = adminInsightSchema.parse(answer.json);
      expect(site.topFundraisers[0]?.id).toBe(fundraiser.id);
      expect(site.topFundraisers.find((one) => one.id === draft.id)?.slug).toBeNull();
      expect(await tableOf(top)).toEqual([
        ['Fundraiser', 'Artist', 'Raised', 'Donations'],
        ...site.topFundraisers.map((one) => [
          one.name,
          one.artistName,
          formatCents(one.raisedCents),
          formatCount(one.donations),
        ]),
      ]);
      expect(await top.getByRole('link', { name: NAME }).getAttribute('href')).toBe(`/projects/${fundraiser.urlSlug}`);
      // The draft has no page: its name, with no link.
      expect(await top.getByRole('rowheader', { name: draft.name }).count()).toBe(1);
      expect(await top.getByRole('link', { name: draft.name }).count()).toBe(0);

      for (const title of ['Raised per day', 'Money per week', 'Listening', 'Views', 'Where visits came from']) {
        const section = panel(page, title);
        await section.scrollIntoViewIfNeeded();
        expect(await section.isVisible(), title).toBe(true);
        await shot(section, `admin-${width}-${title.toLowerCase().replace(/\W+/g, '-')}`);
      }
      // Money per week: bars for each Monday's week; pointing at the last reads it in the legend.
      const weeks = panel(page, 'Money per week');
      const lastWeek = site.weeks.at(-1)!.weekStart;
      const weeksChart = weeks.getByRole('img');
      expect(await weeksChart.getAttribute('aria-label')).toMatch(/^Money per week \(Monday to Sunday\), /);
      await weeksChart.scrollIntoViewIfNeeded();
      await pointAtLast(weeks);
      await expect
        .poll(() => weeks.locator('.chart-legend-when').textContent())
        .toBe(
          `Week of ${new Date(`${lastWeek}T12:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })}`,
        );
      await page.mouse.move(0, 0);
      // Thirty days begin mid-week here or there: the note says which weeks are partial.
      if (site.weeks[0]!.weekStart < site.days[0]!.date) {
        expect(await weeks.locator('.field-hint').textContent()).toMatch(/the first week \(from .+\).* partial\.$/);
      }
      await weeks.getByRole('button', { name: 'Show as table' }).click();
      expect(await weeks.locator('caption').textContent()).toMatch(
        /^Money per week \(Monday to Sunday\), .+ to .+, \d{4}$/,
      );
      expect(await tableOf(weeks)).toEqual([
        ['Week of', 'Raised for charities', 'Tips kept', 'Paid out to charities'],
        ...site.weeks.map((week) => [
          week.weekStart,
          formatCents(week.raisedCents),
          formatCents(week.tipsCents),
          formatCents(week.paidOutCents),
        ]),
      ]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `admin-${width}`, true);

      // Longer periods: weeks and days across months.
      for (const days of ['90', 'all']) {
        await page.getByRole('radio', { name: days === 'all' ? 'All time' : `${days} days` }).click();
        await page.waitForURL(new RegExp(`/admin/insight\\?days=${days}$`));
        await pageSettled(page);
        for (const title of ['Money per week', 'Raised per day']) {
          const section = panel(page, title);
          // The week's table was chosen above; the chart is the one to see.
          const asChart = section.getByRole('button', { name: 'Show as chart' });
          if ((await asChart.count()) > 0) await asChart.click();
          await shot(section, `admin-${width}-${days}-${title.toLowerCase().replace(/\W+/g, '-')}`);
        }
      }
      // Another tab and back: the period chosen is kept.
      const tabs = page.getByRole('navigation', { name: 'Admin sections' });
      await tabs.getByRole('link', { name: 'Transactions' }).click();
      await page.waitForURL(`${server.baseUrl}/admin/transactions`);
      await tabs.getByRole('link', { name: 'Insight' }).click();
      await page.waitForURL(`${server.baseUrl}/admin/insight?days=all`);
      expect(await page.getByRole('radio', { name: 'All time' }).isChecked()).toBe(true);
    });
  }
});
