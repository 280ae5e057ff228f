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

const HOUR_MS = 60 * 60 * 1000;
/**
 * What one address may have counted in an hour, per process: a count is not worth a row of its
 * own in the throttle table (a popular page would write millions), and a loop inflating a
 * fundraiser's figures needs no more than memory to stop.
 */
const COUNTS_PER_HOUR = 600;
const counters = new Map<string, { count: number; since: number }>();

function mayCount(clientIp: string, now = Date.now()): boolean {
  const seen = counters.get(clientIp);
  if (!seen || now - seen.since >= HOUR_MS) {
    // Forget the addresses of the hour before now and then, so the map stays small.
    if (counters.size >= 50_000) {
      for (const [ip, entry] of counters) if (now - entry.since >= HOUR_MS) counters.delete(ip);
    }
    counters.set(clientIp, { count: 1, since: now });
    return true;
  }
  seen.count++;
  return seen.count <= COUNTS_PER_HOUR;
}

/**
 * One more of `kind` (and `detail`) for a fundraiser today, unless the address (when given) has
 * counted enough this hour. Never fails its caller: a count is worth less than the answer it rides
 * on (a stream, a download, a page), so a busy or broken database only loses the count.
 */
export function countForFundraiser(
  deps: Pick<Deps, 'db' | 'config' | 'logger'>,
  fundraiserId: number,
  kind: queries.DailyCountKind,
  { detail = '', clientIp }: { detail?: string; clientIp?: string } = {},
): void {
  if (clientIp !== undefined && !mayCount(clientIp)) return;
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

/** A request for a fundraiser's audio or album, and how it was answered. */
export type MediaRequest = { method: string; range: string | undefined; clientIp: string; status: number };

/**
 * Whether a request begins a play or a download: a GET from the first byte (no Range, `bytes=0-`,
 * or Safari's `bytes=0-N` after its two-byte probe `bytes=0-1`), answered with the file or where it
 * is (200, 206, or a redirect to the bucket). A player goes on with later ranges, seeking among
 * them: the same play. A 304 is a browser's own copy, not counted again.
 */
function begins({ method, range, status }: MediaRequest): boolean {
  if (method !== 'GET' || ![200, 206, 302, 307].includes(status)) return false;
  if (range === undefined) return true;
  const end = /^bytes=0-(\d*)$/.exec(range.trim())?.[1];
  return end !== undefined && (end === '' || Number(end) > 1);
}

/** A preview or a full track begun by a listener. */
export function countPlay(deps: Deps, fundraiserId: number, kind: 'preview_play' | 'stream', request: MediaRequest) {
  if (begins(request)) countForFundraiser(deps, fundraiserId, kind, { clientIp: request.clientIp });
}

/** A download of a fundraiser's music in `format` begun (a resumed one's later ranges are the same). */
export function countDownload(deps: Deps, fundraiserId: number, format: string, request: MediaRequest) {
  if (begins(request))
    countForFundraiser(deps, fundraiserId, 'download', { detail: format, clientIp: request.clientIp });
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

/** The longest list an answer gives: past it, the rest are summed as "other". */
const LIST_MAX = 25;

/**
 * Most first, then by name, as every list of the answers is; at most LIST_MAX, the rest summed as
 * `other` (a referrer's host is anyone's to make up).
 */
function ranked<K extends string, V extends string>(counts: Map<string, number>, key: K, value: V) {
  const entry = (name: string, count: number) =>
    ({ [key]: name, [value]: count }) as Record<K, string> & Record<V, number>;
  const sorted = [...counts].filter(([, count]) => count > 0).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (sorted.length <= LIST_MAX) return sorted.map(([name, count]) => entry(name, count));
  const shown = sorted.slice(0, LIST_MAX - 1).filter(([name]) => name !== 'other');
  const rest = sorted.filter((item) => !shown.includes(item)).reduce((sum, [, count]) => sum + count, 0);
  return [...shown.map(([name, count]) => entry(name, count)), entry('other', rest)];
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
  const folded = foldedMonths(first);
  for (const [dayOfRow, pageViews, previewPlays, streams, downloads, embedViews] of queries.countsByDay(
    deps.db,
    fundraiserId,
    first,
  )) {
    const day = byDate.get(folded.dateOf(dayOfRow));
    if (!day) continue;
    // Shares and the embed's own plays are the Reach panel's (issue 28); its plays are previews the
    // server sent too, counted as those. Site-wide, page views are every page's (the site's counts).
    if (fundraiserId !== null) day.pageViews += pageViews;
    day.previewPlays += previewPlays;
    day.streams += streams;
    day.downloads += downloads;
    day.embedViews += embedViews;
  }
  const formats = new Map<string, number>();
  for (const [kind, detail, count] of queries.countsByDetail(deps.db, fundraiserId, first)) {
    if (kind === 'download') add(formats, detail || 'original', count);
    else add(sources, detail || 'direct', count);
  }
  const embedViews = days.dates.reduce((total, date) => total + byDate.get(date)!.embedViews, 0);
  if (embedViews > 0) add(sources, 'embed', embedViews);
  return { formats, folded };
}

/**
 * Where a count's row goes in a period beginning `first`: a day's on its day; a folded month's
 * ("2026-01") on its first day when the month begins in the period, nowhere when it began before
 * (its days cannot be told apart: leaving it out never shows a count from outside the period).
 * `monthlyBefore` ends up the day after the last folded month seen (the dashboards say so).
 */
function foldedMonths(first: string) {
  const folded = {
    monthlyBefore: null as string | null,
    dateOf(day: string): string {
      if (day.length !== 7) return day;
      const nextMonth = `${addDays(`${day}-01`, 31).slice(0, 7)}-01`;
      if (nextMonth > first) folded.monthlyBefore = laterOf(folded.monthlyBefore, nextMonth);
      return `${day}-01` >= first ? `${day}-01` : '';
    },
  };
  return folded;
}

const laterOf = (a: string | null, b: string) => (a === null || b > a ? b : a);

/** The oldest day of a map by date, if any. */
function firstKey(byDate: ReadonlyMap<string, unknown>): string | undefined {
  let first: string | undefined;
  for (const date of byDate.keys()) if (first === undefined || date < first) first = date;
  return first;
}

/**
 * The money placed on the period's days; returns what was raised before the first. A row dated
 * after today (a processor's clock ahead of ours) counts today, so the days always add up.
 */
function moneyIntoDays(money: ReadonlyMap<string, MoneyDay>, days: SiteDays, byDate: Map<string, InsightDay>): number {
  let raisedBeforeCents = 0;
  const first = days.dates[0]!;
  const last = days.dates.at(-1)!;
  for (const [date, sums] of money) {
    const day = byDate.get(date > last ? last : date);
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
  const { formats, folded } = countsIntoDays(deps, id, days, byDate, sources);
  const period: Period = {
    timeZone,
    days: inOrder,
    sources: ranked(sources, 'referrer', 'visits'),
    formats: ranked(formats, 'id', 'downloads'),
    monthlyBefore: folded.monthlyBefore,
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
  const { formats, folded } = countsIntoDays(deps, null, days, byDate, sources);

  // The site's own counts: every page's views, the events, where landings came from.
  const pages = new Map<string, number>();
  const events = new Map<string, number>();
  const first = days.dates[0]!;
  for (const row of queries.siteCountsSince(deps.db, first)) {
    const day = byDate.get(folded.dateOf(row.day));
    if (!day) continue;
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
    const { id, name, urlSlug, artistName, takesDonations } = target;
    // Only a published fundraiser has a page to link to.
    const slug = takesDonations ? urlSlug : null;
    return [{ id, name, slug, artistName, raisedCents: row.raisedCents, donations: row.donations }];
  });

  return {
    timeZone,
    days: inOrder,
    sources: ranked(sources, 'referrer', 'visits'),
    formats: ranked(formats, 'id', 'downloads'),
    monthlyBefore: folded.monthlyBefore,
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
  const done = { before, months: 0, fundraiserRows: 0, siteRows: 0 };
  for (const month of queries.monthsWithDaysBefore(deps.db, before)) {
    const folded = queries.foldMonth(deps.db, month);
    done.months += 1;
    done.fundraiserRows += folded.fundraiserRows;
    done.siteRows += folded.siteRows;
  }
  return done;
}
