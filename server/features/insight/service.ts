import type { AdminInsight, FundraiserInsight, InsightDay } from '../../../shared/answers/insight';
import type { InsightQuery } from '../../../shared/schemas/insight';
import { siteCalendarDate } from '../../../shared/site-dates';
import type { Db } from '../../db/client';
import { addDays, siteDays, type SiteDays } from '../../db/site-days';
import type { Deps, Session } from '../../deps';
import { donationTarget, managedFundraiserSummary } from '../fundraisers/service';
import { topFundraisersBetween } from '../journal/service';
import { type MoneyDay, moneyDays } from './money-days';
import * as queries from './queries';

// Insight (issue 29; DESIGN.md wave 3, "insight"): what happened day by day, from what the site
// keeps anyway: the money journal (raised, donations, payouts) and counts per day (page views,
// plays, downloads, where visits came from). Days are calendar days in the site's time zone; no
// answer names a donor, a listener or a visitor, because nothing counted knows one.

export type { DailyCountKind } from './queries';

// ---------------------------------------------------------------------------------------------
// Counting

/** Today in the site's time zone: the day every count goes to. */
const today = (deps: Pick<Deps, 'config'>, now = Date.now()) => siteCalendarDate(now, deps.config.timeZone);

/**
 * One more of `kind` for a fundraiser today. Never fails its caller: a count is worth less than
 * the answer it rides on (a stream, a download), so a busy or broken database only loses the count.
 */
export function countForFundraiser(
  deps: Pick<Deps, 'db' | 'config' | 'logger'>,
  fundraiserId: number,
  kind: queries.DailyCountKind,
  detail = '',
): void {
  try {
    queries.addToDailyCount(deps.db, fundraiserId, today(deps), kind, detail);
  } catch (error) {
    deps.logger.warn({ err: error, fundraiserId, kind }, 'insight: a count was lost');
  }
}

/** The same inside a caller's transaction (a share is counted with its throttle), which may fail it. */
export function countForFundraiserIn(
  db: Db,
  deps: Pick<Deps, 'config'>,
  fundraiserId: number,
  kind: queries.DailyCountKind,
) {
  queries.addToDailyCount(db, fundraiserId, today(deps), kind);
}

/** One more site-wide page view (by page shape), event or landing from somewhere, today. */
export function countForSite(deps: Pick<Deps, 'db' | 'config'>, kind: queries.SiteCountKind, name: string): void {
  queries.addToSiteCount(deps.db, today(deps), kind, name);
}

/**
 * Whether a media request begins a play: a player's first request has no Range or one open from
 * the first byte, then it goes on with ranges (seeking among them), which are the same play.
 */
export function beginsPlay(method: string, range: string | undefined): boolean {
  return method === 'GET' && (range === undefined || /^bytes=0-$/.test(range.trim()));
}

/**
 * A download of a fundraiser's music in `format`, counted once it is being sent (a resumed
 * download's later ranges are the same download).
 */
export function countDownload(
  deps: Pick<Deps, 'db' | 'config' | 'logger'>,
  fundraiserId: number,
  format: string,
  request: { method: string; range: string | undefined },
  status: number,
): void {
  if ((status === 200 || status === 206) && beginsPlay(request.method, request.range)) {
    countForFundraiser(deps, fundraiserId, 'download', format);
  }
}

export const totalCounts = queries.totalCounts;

// ---------------------------------------------------------------------------------------------
// Reading

type Period = Omit<FundraiserInsight, 'fundraiser'>;

const emptyDay = (date: string): InsightDay => ({
  date,
  raisedCents: 0,
  donations: 0,
  previewPlays: 0,
  streams: 0,
  downloads: 0,
  pageViews: 0,
  embedViews: 0,
});

/**
 * The period's days: the last `days` up to today, or for all time from the oldest of `beginnings`
 * (undefined ones are not there).
 */
function periodDays(
  deps: Pick<Deps, 'config'>,
  query: InsightQuery,
  beginnings: () => (string | undefined)[],
  now: number,
): SiteDays {
  const last = today(deps, now);
  const first =
    query.days === 'all'
      ? [last, ...beginnings()].filter((day) => day !== undefined).sort()[0]!
      : addDays(last, -(query.days - 1));
  return siteDays(first, last, deps.config.timeZone);
}

/** Most first, then by name, as every list of the answers is. */
function ranked<K extends string, V extends string>(counts: Map<string, number>, key: K, value: V) {
  return [...counts]
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([name, count]) => ({ [key]: name, [value]: count }) as Record<K, string> & Record<V, number>);
}

const add = (counts: Map<string, number>, name: string, count: number) =>
  counts.set(name, (counts.get(name) ?? 0) + count);

/**
 * Everything but the money, for one fundraiser or all of them: the daily counts placed on their
 * days (a month's folded row on its first day in the period), sources and formats summed.
 */
function countsIntoDays(
  deps: Deps,
  fundraiserId: number | null,
  days: SiteDays,
  byDate: Map<string, InsightDay>,
  sources: Map<string, number>,
) {
  const first = days.dates[0]!;
  let monthlyBefore: string | null = null;
  for (const row of queries.fundraiserCountsByDay(deps.db, fundraiserId, first)) {
    const isMonth = row.day.length === 7;
    const date = isMonth ? (`${row.day}-01` < first ? first : `${row.day}-01`) : row.day;
    const day = byDate.get(date);
    if (!day) continue;
    if (isMonth) monthlyBefore = laterOf(monthlyBefore, addDays(`${row.day}-01`, 31).slice(0, 7) + '-01');
    // Shares and the embed's own plays are the Reach panel's (issue 28); its plays are previews the
    // server sent too, counted as those. Site-wide, page views are every page's (the site's counts).
    if (row.kind === 'page_view' && fundraiserId !== null) day.pageViews += row.count;
    else if (row.kind === 'embed_view') day.embedViews += row.count;
    else if (row.kind === 'preview_play') day.previewPlays += row.count;
    else if (row.kind === 'stream') day.streams += row.count;
    else if (row.kind === 'download') day.downloads += row.count;
  }
  const formats = new Map<string, number>();
  for (const row of queries.fundraiserCountsByDetail(deps.db, fundraiserId, first)) {
    if (row.kind === 'download') add(formats, row.detail || 'original', row.count);
    else if (fundraiserId !== null) add(sources, row.detail || 'direct', row.count);
  }
  const embedViews = days.dates.reduce((total, date) => total + byDate.get(date)!.embedViews, 0);
  if (embedViews > 0) add(sources, 'embed', embedViews);
  return { formats, monthlyBefore };
}

const laterOf = (a: string | null, b: string) => (a === null || b > a ? b : a);

/** The oldest day of a map by date, if any. */
function firstKey(byDate: ReadonlyMap<string, unknown>): string | undefined {
  let first: string | undefined;
  for (const date of byDate.keys()) if (first === undefined || date < first) first = date;
  return first;
}

/** The money placed on the period's days; returns what was raised before the first. */
function moneyIntoDays(money: ReadonlyMap<string, MoneyDay>, days: SiteDays, byDate: Map<string, InsightDay>): number {
  let raisedBeforeCents = 0;
  const first = days.dates[0]!;
  for (const [date, sums] of money) {
    const day = byDate.get(date);
    if (day) {
      day.raisedCents += sums.raisedCents;
      day.donations += sums.donations;
    } else if (date < first) raisedBeforeCents += sums.raisedCents;
  }
  return raisedBeforeCents;
}

function emptyPeriod(days: SiteDays) {
  const inOrder = days.dates.map(emptyDay);
  return { inOrder, byDate: new Map(inOrder.map((day) => [day.date, day])) };
}

/** GET /api/fundraisers/{id}/insight?days=N|all: its owner and admins. */
export function fundraiserInsight(
  deps: Deps,
  session: Session,
  id: number,
  query: InsightQuery,
  now = Date.now(),
): FundraiserInsight {
  const { createdAt, ...fundraiser } = managedFundraiserSummary(deps, session, id);
  const { timeZone } = deps.config;
  const money = moneyDays(deps.db, id, timeZone, now);
  // All time starts the day it was made, or with its first money or count if older (an imported
  // fundraiser's).
  const days = periodDays(
    deps,
    query,
    () => [siteCalendarDate(createdAt, timeZone), firstKey(money), queries.firstCountedDay(deps.db, id)],
    now,
  );
  const { inOrder, byDate } = emptyPeriod(days);
  const raisedBeforeCents = moneyIntoDays(money, days, byDate);
  const sources = new Map<string, number>();
  const { formats, monthlyBefore } = countsIntoDays(deps, id, days, byDate, sources);
  const period: Period = {
    timeZone,
    days: inOrder,
    sources: ranked(sources, 'referrer', 'visits'),
    formats: ranked(formats, 'id', 'downloads'),
    monthlyBefore,
    raisedBeforeCents,
  };
  return { ...period, fundraiser };
}

const TOP_FUNDRAISERS = 10;

/** GET /api/admin/insight?days=N|all: the site's days, for admins (the route checks). */
export function adminInsight(deps: Deps, query: InsightQuery, now = Date.now()): AdminInsight {
  const timeZone = deps.config.timeZone;
  const money = moneyDays(deps.db, null, timeZone, now);
  // All time starts with the first count (the site's first page view) or the first money.
  const days = periodDays(deps, query, () => [queries.firstCountedDay(deps.db, null), firstKey(money)], now);
  const { inOrder, byDate } = emptyPeriod(days);
  const raisedBeforeCents = moneyIntoDays(money, days, byDate);
  const sources = new Map<string, number>();
  const { formats, monthlyBefore: fundraisersMonthlyBefore } = countsIntoDays(deps, null, days, byDate, sources);
  let monthlyBefore = fundraisersMonthlyBefore;

  // The site's own counts: every page's views, the events, where landings came from.
  const pages = new Map<string, number>();
  const events = new Map<string, number>();
  const first = days.dates[0]!;
  for (const row of queries.siteCountsSince(deps.db, first)) {
    const isMonth = row.day.length === 7;
    const date = isMonth ? (`${row.day}-01` < first ? first : `${row.day}-01`) : row.day;
    const day = byDate.get(date);
    if (!day) continue;
    if (isMonth) monthlyBefore = laterOf(monthlyBefore, addDays(`${row.day}-01`, 31).slice(0, 7) + '-01');
    if (row.kind === 'pageview') {
      day.pageViews += row.count;
      add(pages, row.name, row.count);
    } else if (row.kind === 'event') add(events, row.name, row.count);
    else add(sources, row.name, row.count);
  }

  // Weeks from Monday, each of the period's days in one.
  const weeks = new Map<string, AdminInsight['weeks'][number]>();
  const weekOf = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
  for (const day of inOrder) {
    const weekStart = weekOf(day.date);
    let week = weeks.get(weekStart);
    if (!week) weeks.set(weekStart, (week = { weekStart, raisedCents: 0, tipsCents: 0, paidOutCents: 0 }));
    const sums = money.get(day.date);
    if (!sums) continue;
    week.raisedCents += sums.raisedCents;
    week.tipsCents += sums.tipsCents;
    week.paidOutCents += sums.paidOutCents;
  }
  const top = topFundraisersBetween(deps.db, new Date(days.starts[0]!), new Date(days.starts.at(-1)!), TOP_FUNDRAISERS);
  const topFundraisers = top.flatMap((row) => {
    const target = donationTarget(deps.db, row.fundraiserId);
    if (!target) return [];
    const { id, name, urlSlug: slug, artistName } = target;
    return [{ id, name, slug, artistName, raisedCents: row.raisedCents, donations: row.donations }];
  });

  return {
    timeZone,
    days: inOrder,
    sources: ranked(sources, 'referrer', 'visits'),
    formats: ranked(formats, 'id', 'downloads'),
    monthlyBefore,
    raisedBeforeCents,
    topFundraisers,
    weeks: [...weeks.values()],
    pages: ranked(pages, 'path', 'views'),
    events: ranked(events, 'name', 'count'),
  };
}

/**
 * Folds the daily counts older than `keepDays` days into monthly rows (`npm run cli --
 * prune-insight`, INSIGHT_KEEP_DAYS): whole months only, so a month is either days or one row.
 */
export function pruneInsight(deps: Pick<Deps, 'db' | 'config'>, keepDays: number, now = Date.now()) {
  const oldestKept = addDays(today(deps, now), -keepDays);
  // The first of the month that holds the oldest day kept: its days stay days.
  const before = `${oldestKept.slice(0, 7)}-01`;
  return { before, ...queries.foldDaysBefore(deps.db, before) };
}
