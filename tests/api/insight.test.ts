import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminInsightSchema, fundraiserInsightSchema, type InsightDay } from '../../shared/answers/insight';
import { type Fundraiser, fundraiserSchema } from '../../shared/answers/fundraisers';
import { trackUrls } from '../../shared/answers/library';
import { OFFLINE_SAVE_QUERY } from '../../shared/constants';
import { siteCalendarDate } from '../../shared/site-dates';
import { addDays } from '../../server/db/site-days';
import { fundraiserDailyCounts, fundraiserTracks } from '../../server/db/schema';
import { pruneInsight } from '../../server/features/insight/service';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 29 (DESIGN.md wave 3, "insight"): what the dashboards read. The counts are what this test
// did, one by one; the money is the journal's, to the cent; no answer names a donor.

const server = useTestServer();
let owner: TestClient;
let admin: TestClient;
let fundraiser: Fundraiser;
let other: Fundraiser;

const today = () => siteCalendarDate(Date.now(), server.deps.config.timeZone);
const sum = (days: InsightDay[], field: keyof Omit<InsightDay, 'date'>) =>
  days.reduce((total, day) => total + day[field], 0);
/** Each count summed over `days`: what happened on them, wherever the site's midnight fell. */
const totals = (days: InsightDay[]) =>
  Object.fromEntries(
    (['raisedCents', 'donations', 'previewPlays', 'streams', 'downloads', 'pageViews', 'embedViews'] as const).map(
      (field) => [field, sum(days, field)],
    ),
  );

function trackOf(fundraiserId: number) {
  return server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.fundraiserId, fundraiserId)).all()[0]!;
}

/** A request as a media element or a download manager makes it: bytes, headers of our choosing. */
async function media(client: TestClient, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const cookie = client.cookieHeader();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-forwarded-for': client.ip, ...(cookie ? { cookie } : {}), ...headers },
  });
  await response.arrayBuffer();
  return response.status;
}

async function insightOf(client: TestClient, id: number, days: string | number = 7) {
  const answer = await client.get(`/api/fundraisers/${id}/insight?days=${days}`);
  expect(answer.status, answer.text).toBe(200);
  return { insight: fundraiserInsightSchema.parse(answer.json), text: answer.text };
}

beforeAll(async () => {
  owner = await verifiedUser(server, 'insight@example.org');
  admin = await adminClient(server, 'insight-admin@example.org');
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  other = await createFundraiser(owner, { publish: true, tracks: 1 });
  await server.jobs.drain();
});

describe("a fundraiser's insight", () => {
  it('counts what happened today: donations, previews, streams, downloads by format, page views by source', async () => {
    // Each count goes on the site's day it happened: the day this test began, or the next if the
    // site's midnight comes while it runs.
    const began = today();
    const visitor = server.client();
    await donate(server, { fundraiserId: fundraiser.id, email: 'a@example.org', donationCents: 1500, tipCents: 200 });
    await donate(server, { fundraiserId: fundraiser.id, email: 'b@example.org', donationCents: 2500, coverFees: true });

    // Previews: a play begins with no Range or one from the first byte; its later ranges, a HEAD
    // and the album preview's own address are counted as a media element asks for them.
    const track = trackOf(fundraiser.id);
    const preview = trackUrls.preview(track.id, track.previewFile!.replace(/\.mp3$/, ''));
    expect(await media(visitor, preview)).toBe(200);
    expect(await media(visitor, preview, { range: 'bytes=0-' })).toBe(206);
    expect(await media(visitor, preview, { range: 'bytes=100-' })).toBe(206);
    expect(await media(visitor, preview, {}, 'HEAD')).toBe(200);
    // Safari: a two-byte probe, then the file from its first byte (one play).
    expect(await media(visitor, preview, { range: 'bytes=0-1' })).toBe(206);
    expect(await media(visitor, preview, { range: 'bytes=0-3000' })).toBe(206);
    const albumPreview = `/api/fundraisers/${fundraiser.id}/preview`;
    const first = await fetch(`${server.baseUrl}${albumPreview}`, {
      headers: { range: 'bytes=0-', 'x-forwarded-for': visitor.ip },
    });
    await first.arrayBuffer();
    expect(first.status).toBe(206);
    // The browser's own copy, confirmed (304): not a play begun again.
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await media(visitor, albumPreview, { 'if-none-match': etag! })).toBe(304);
    // Someone else's fundraiser keeps its own counts.
    const otherTrack = trackOf(other.id);
    await media(visitor, trackUrls.preview(otherTrack.id, otherTrack.previewFile!.replace(/\.mp3$/, '')));

    // Streams: the owner listens twice; saving for offline and a seek are not plays.
    const stream = trackUrls.stream(track.id, track.streamFile!.replace(/\.mp3$/, ''));
    expect(await media(owner, stream, { range: 'bytes=0-' })).toBe(206);
    expect(await media(owner, stream)).toBe(200);
    expect(await media(owner, `${stream}&${OFFLINE_SAVE_QUERY.name}=${OFFLINE_SAVE_QUERY.value}`)).toBe(200);
    expect(await media(owner, stream, { range: 'bytes=500-' })).toBe(206);
    // A stranger is refused, and a refusal is not a stream.
    expect(await media(visitor, stream)).toBe(401);

    // Downloads: the album twice, one track once, a resumed download's rest not again.
    expect(await media(owner, `/api/fundraisers/${fundraiser.id}/download`)).toBe(200);
    expect(await media(owner, `/api/fundraisers/${fundraiser.id}/download`)).toBe(200);
    expect(await media(owner, `/api/tracks/${track.id}/download`)).toBe(200);
    expect(await media(owner, `/api/tracks/${track.id}/download`, { range: 'bytes=10-' })).toBe(206);

    // Page views of its page, by where the visit came from (the host only, "www." dropped).
    const page = `/projects/${fundraiser.urlSlug}`;
    const views: Record<string, unknown>[] = [
      { path: page, referrer: 'news.example.com' },
      { path: page, referrer: 'Www.News.Example.com' },
      { path: `${page}/`, referrer: 'news.example.com' },
      { path: page, referrer: '' },
      { path: page },
      { path: page, referrer: new URL(server.baseUrl).host },
      { path: `/projects/${fundraiser.id}`, referrer: 'blog.example.org' },
      // Not its page: its donate page, another fundraiser's, nowhere.
      { path: `${page}/donate` },
      { path: `/projects/${other.urlSlug}`, referrer: 'news.example.com' },
      { path: '/projects/no-such-fundraiser', referrer: 'news.example.com' },
    ];
    for (const view of views) {
      expect((await visitor.post('/api/analytics/pageview', { json: view })).status).toBe(204);
    }
    for (const kind of ['view', 'view', 'view', 'play']) {
      await visitor.post(`/api/fundraisers/${fundraiser.id}/embed-events?kind=${kind}`);
    }

    const asked = today();
    const { insight, text } = await insightOf(owner, fundraiser.id);
    // Seven days up to the site's today when it answered.
    const last = insight.days.at(-1)!.date;
    expect([asked, today()]).toContain(last);
    expect(insight.days.map((day) => day.date)).toEqual([...Array(7).keys()].map((i) => addDays(last, i - 6)));
    const since = (days: InsightDay[]) => days.filter((day) => day.date >= began);
    expect(totals(since(insight.days))).toMatchObject({
      donations: 2,
      previewPlays: 4,
      streams: 2,
      downloads: 3,
      pageViews: 7,
      embedViews: 3,
    });
    const before = insight.days.filter((day) => day.date < began);
    expect(sum(before, 'pageViews') + sum(before, 'previewPlays')).toBe(0);
    expect(insight.sources).toEqual([
      { referrer: 'embed', visits: 3 },
      { referrer: 'news.example.com', visits: 3 },
      { referrer: 'site', visits: 2 },
      { referrer: 'blog.example.org', visits: 1 },
      { referrer: 'direct', visits: 1 },
    ]);
    expect(insight.formats).toEqual([{ id: 'original', downloads: 3 }]);
    expect(insight.fundraiser).toEqual({
      id: fundraiser.id,
      name: fundraiser.name,
      slug: fundraiser.urlSlug,
      goalCents: 100_000,
    });
    expect(insight.timeZone).toBe(server.deps.config.timeZone);
    expect(insight.monthlyBefore).toBeNull();
    // No donor, listener or visitor anywhere in the answer.
    expect(text).not.toMatch(/@example\.org|A Fan|10\.\d+\.\d+\.\d+/);

    // The other fundraiser has its own page view and preview, none of these.
    const { insight: theirs } = await insightOf(owner, other.id);
    expect(totals(since(theirs.days))).toMatchObject({ previewPlays: 1, pageViews: 1, donations: 0, streams: 0 });
  });

  it("adds up to the journal's total, to the cent, for any period", async () => {
    // A payment of three days ago and a refund of yesterday, as the journal keeps them.
    const insert = server.sqlite.prepare(
      `insert into money_journal (provider_id, kind, fundraiser_id, charity_ein, charity_cents, occurred_at)
       values (?, ?, ?, '530196605', ?, ?)`,
    );
    // Each day is named by the site's calendar, not by counting 24-hour steps back: across a change
    // of clocks, 40 × 24 hours before just after midnight is the 39th day back, not the 40th.
    const now = Date.now();
    const dayOf = (at: number) => siteCalendarDate(at, server.deps.config.timeZone);
    const [threeDaysAgo, yesterday, fortyDaysAgo] = [now - 3 * 86_400_000, now - 86_400_000, now - 40 * 86_400_000];
    // What each row adds to its day, not what the day holds: 24 hours back may be a day that has
    // money of the test above (in the last hour of the 25-hour day the clocks go back, it is that
    // very day; and it is when the site's midnight came since).
    const { insight: weekBefore } = await insightOf(owner, fundraiser.id, 7);
    insert.run('pi_insight_old', 'charge', fundraiser.id, 1200, threeDaysAgo);
    insert.run('re_insight_old', 'refund', fundraiser.id, -700, yesterday);
    insert.run('pi_insight_ancient', 'charge', fundraiser.id, 900, fortyDaysAgo);
    const total = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json).totalRaised;
    for (const days of [1, 7, 30, 90, 'all'] as const) {
      const { insight } = await insightOf(owner, fundraiser.id, days);
      expect(insight.raisedBeforeCents + sum(insight.days, 'raisedCents'), `days=${days}`).toBe(total);
    }
    const { insight: week } = await insightOf(owner, fundraiser.id, 7);
    expect(week.raisedBeforeCents).toBe(900);
    const dayIn = (days: InsightDay[], at: number) => days.find((day) => day.date === dayOf(at))!;
    const added = (at: number) => {
      const [was, is] = [dayIn(weekBefore.days, at), dayIn(week.days, at)];
      return { raisedCents: is.raisedCents - was.raisedCents, donations: is.donations - was.donations };
    };
    expect(added(threeDaysAgo)).toEqual({ raisedCents: 1200, donations: 1 });
    // A refund takes money away on its own day; the payment it undoes still happened.
    expect(added(yesterday)).toEqual({ raisedCents: -700, donations: 0 });
    // All time begins the day the fundraiser was made, or with its oldest money.
    const { insight: all } = await insightOf(owner, fundraiser.id, 'all');
    expect(all.days[0]!.date).toBe(dayOf(fortyDaysAgo));
    expect(all.raisedBeforeCents).toBe(0);
  });

  it('is for its owner and admins only, and says what is wrong with a bad period', async () => {
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}/insight`)).status).toBe(401);
    const stranger = await verifiedUser(server, 'insight-stranger@example.org');
    expect((await stranger.get(`/api/fundraisers/${fundraiser.id}/insight?days=x`)).status).toBe(403);
    expect((await admin.get(`/api/fundraisers/${fundraiser.id}/insight?days=30`)).status).toBe(200);
    expect((await owner.get('/api/fundraisers/999999/insight')).status).toBe(404);
    for (const days of ['0', '3651', '1.5', 'forever', '']) {
      const bad = await owner.get(`/api/fundraisers/${fundraiser.id}/insight?days=${days}`);
      expect(bad.status, days).toBe(400);
      expect(JSON.stringify(bad.json)).toContain('Days must be a whole number from 1 to 3650, or all.');
    }
  });

  it('counts a referrer that is no host a site could have as other, and never as one of its own names', async () => {
    const client = server.client();
    const page = `/projects/${other.urlSlug}`;
    for (const referrer of ['intranet', 'embed', 'a b', 'https://news.example.com/story', 'x_y.example.com']) {
      const answer = await client.post('/api/analytics/pageview', { json: { path: page, referrer } });
      expect(answer.status, referrer).toBe(204);
    }
    const { insight } = await insightOf(owner, other.id);
    expect(insight.sources).toContainEqual({ referrer: 'other', visits: 5 });
    expect(insight.sources.map((source) => source.referrer)).not.toContain('embed');
    const long = await client.post('/api/analytics/pageview', { json: { path: page, referrer: 'x'.repeat(300) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.json)).toContain('Referrer cannot exceed 260 characters.');
  });

  it("counts a guest's download from the receipt's link", async () => {
    await donate(server, { fundraiserId: other.id, email: 'guest-insight@example.org' });
    await server.jobs.drain();
    const token = server.outbox
      .messages('guest-insight@example.org')
      // Quoted-printable: a long line is broken with "=" and a line end.
      .map((message) => /\/purchases\/([A-Za-z0-9_-]{43})/.exec(message.replace(/=\r?\n/g, ''))?.[1])
      .find(Boolean);
    expect(token).toBeTruthy();
    const before = (await insightOf(owner, other.id)).insight.days.at(-1)!.downloads;
    expect(await media(server.client(), `/api/purchases/${token}/download`)).toBe(200);
    const after = (await insightOf(owner, other.id)).insight;
    expect(after.days.at(-1)!.downloads).toBe(before + 1);
    expect(after.formats).toEqual([{ id: 'original', downloads: before + 1 }]);
  });
});

describe("the site's insight", () => {
  it('adds every fundraiser up, with the top ones, the weeks, the pages and the events', async () => {
    const visitor = server.client();
    await visitor.post('/api/analytics/event', { json: { name: 'Sign up' } });
    await visitor.post('/api/analytics/pageview', { json: { path: '/browse', referrer: 'search.example.net' } });
    // A disbursement of yesterday: paid out, not money in.
    server.sqlite
      .prepare(
        `insert into money_journal (provider_id, kind, charity_ein, charity_cents, occurred_at)
         values ('dis_insight', 'disbursement', '530196605', -1000, ?)`,
      )
      .run(Date.now() - 86_400_000);

    const answer = await admin.get('/api/admin/insight?days=90');
    expect(answer.status, answer.text).toBe(200);
    const site = adminInsightSchema.parse(answer.json);
    const mine = (await insightOf(owner, fundraiser.id, 90)).insight;
    const theirs = (await insightOf(owner, other.id, 90)).insight;
    expect(site.days).toHaveLength(90);
    for (const field of ['raisedCents', 'donations', 'previewPlays', 'streams', 'downloads', 'embedViews'] as const) {
      expect(sum(site.days, field), field).toBe(sum(mine.days, field) + sum(theirs.days, field));
    }
    // Page views here are every page's, the fundraisers' among them.
    expect(sum(site.days, 'pageViews')).toBeGreaterThan(sum(mine.days, 'pageViews') + sum(theirs.days, 'pageViews'));
    expect(site.pages).toContainEqual({ path: '/projects/:param', views: 14 });
    expect(site.events).toContainEqual({ name: 'Sign up', count: 1 });
    // Where visits began: landings only (a page the site led to is not a landing).
    expect(site.sources).toContainEqual({ referrer: 'news.example.com', visits: 5 });
    expect(site.sources).toContainEqual({ referrer: 'search.example.net', visits: 1 });
    expect(site.sources).toContainEqual({ referrer: 'embed', visits: 3 });
    expect(site.topFundraisers[0]).toMatchObject({ id: fundraiser.id, slug: fundraiser.urlSlug, donations: 4 });
    expect(site.topFundraisers[0]!.raisedCents).toBe(sum(mine.days, 'raisedCents'));
    // The weeks hold the same money, and the payout.
    expect(site.weeks.reduce((total, week) => total + week.raisedCents, 0)).toBe(sum(site.days, 'raisedCents'));
    expect(site.weeks.reduce((total, week) => total + week.paidOutCents, 0)).toBe(1000);
    expect(site.weeks.reduce((total, week) => total + week.tipsCents, 0)).toBeGreaterThanOrEqual(200);
    for (const week of site.weeks) expect(new Date(`${week.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(answer.text).not.toMatch(/@example\.org|A Fan/);

    expect((await owner.get('/api/admin/insight')).status).toBe(403);
    expect((await server.client().get('/api/admin/insight')).status).toBe(401);
  });
});

describe('pruning old days into months', () => {
  it('keeps every total while a month of days becomes one row', async () => {
    const longAgo = addDays(today(), -800);
    const month = longAgo.slice(0, 7);
    const rows = [0, 1, 2].map((i) => ({
      fundraiserId: fundraiser.id,
      day: `${month}-0${i + 1}`,
      kind: 'page_view' as const,
      detail: 'old.example.com',
      count: 10,
    }));
    server.db.insert(fundraiserDailyCounts).values(rows).run();
    const before = (await insightOf(owner, fundraiser.id, 'all')).insight;
    expect(before.days[0]!.date).toBe(`${month}-01`);
    expect(before.monthlyBefore).toBeNull();

    const done = pruneInsight(server.deps, 730);
    expect(done).toMatchObject({ months: 1, fundraiserRows: 3 });
    const left = server.db
      .select()
      .from(fundraiserDailyCounts)
      .where(eq(fundraiserDailyCounts.detail, 'old.example.com'))
      .all();
    expect(left).toEqual([{ ...rows[0], day: month, count: 30 }]);
    // Again: nothing more to fold, nothing counted twice.
    expect(pruneInsight(server.deps, 730).fundraiserRows).toBe(0);

    const after = (await insightOf(owner, fundraiser.id, 'all')).insight;
    expect(after.days.map((day) => day.date)).toEqual(before.days.map((day) => day.date));
    expect(after.days[0]!.pageViews).toBe(30);
    expect(sum(after.days, 'pageViews')).toBe(sum(before.days, 'pageViews'));
    expect(after.sources).toEqual(before.sources);
    expect(after.monthlyBefore! > `${month}-01`).toBe(true);

    // A period that begins inside the folded month leaves the month out (its days cannot be told
    // apart) and says days before then are kept by month.
    const fromMidMonth = (Date.parse(`${today()}T00:00:00Z`) - Date.parse(`${month}-02T00:00:00Z`)) / 86_400_000 + 1;
    const partial = (await insightOf(owner, fundraiser.id, fromMidMonth)).insight;
    expect(partial.days[0]!.date).toBe(`${month}-02`);
    expect(sum(partial.days, 'pageViews')).toBe(sum(after.days, 'pageViews') - 30);
    expect(partial.sources).not.toContainEqual(expect.objectContaining({ referrer: 'old.example.com' }));
    expect(partial.monthlyBefore).toBe(after.monthlyBefore);
  });
});
