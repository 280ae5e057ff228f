import type { FundraiserInsight } from '../../../shared/answers/insight';
import type { InsightQuery } from '../../../shared/schemas/insight';
import { siteCalendarDate, siteCalendarDates, startOfSiteDay } from '../../../shared/site-dates';
import type { Deps, Session } from '../../deps';
import { managedFundraiserSince } from '../fundraisers/service';
import { fundraiserMoneySince } from '../journal/service';
import { dailyCountsSince } from '../sharing/service';

// Insight (issue 29; DESIGN.md wave 3, "insight"): a fundraiser's days, from what the site keeps:
// the money journal (raised, donations) and the daily counts (views of its embedded player, …).
// Days are calendar days in the site's time zone; no donor is named anywhere.

const DAY_MS = 24 * 60 * 60 * 1000;

/** "2026-11-29" → the day before or after, as a calendar (no zone: a date is a date). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every calendar day from `first` to `last`, both in. */
function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

type Day = FundraiserInsight['days'][number];

const emptyDay = (date: string): Day => ({
  date,
  raisedCents: 0,
  donations: 0,
  previewPlays: 0,
  streams: 0,
  downloads: 0,
  pageViews: 0,
  embedViews: 0,
});

/** GET /api/fundraisers/{id}/insight?days=N: its owner and admins. */
export function fundraiserInsight(deps: Deps, session: Session, id: number, query: InsightQuery, now = Date.now()) {
  const { timeZone } = deps.config;
  const today = siteCalendarDate(now, timeZone);
  const fundraiser = managedFundraiserSince(deps, session, id);
  const dayOf = siteCalendarDates(timeZone);
  // All time: from the day it was made, or its first money if older (an imported fundraiser's).
  const money = fundraiserMoneySince(
    deps.db,
    id,
    query.days === 'all' ? new Date(0) : startOfSiteDay(addDays(today, -(query.days - 1)), timeZone),
  );
  const first =
    query.days === 'all'
      ? [
          siteCalendarDate(fundraiser.createdAt, timeZone),
          ...money.slice(0, 1).map((row) => dayOf(row.occurredAt)),
        ].sort()[0]!
      : addDays(today, -(query.days - 1));
  const days = new Map(daysBetween(first, today).map((date) => [date, emptyDay(date)]));
  for (const row of money) {
    const day = days.get(dayOf(row.occurredAt));
    if (!day) continue;
    day.raisedCents += row.charityCents;
    if (row.isCharge) day.donations += 1;
  }
  let embedVisits = 0;
  for (const row of dailyCountsSince(deps.db, id, first)) {
    const day = days.get(row.day);
    if (!day) continue;
    if (row.kind === 'embed_view') {
      day.embedViews += row.count;
      embedVisits += row.count;
    }
  }
  const answer: FundraiserInsight = {
    days: [...days.values()],
    sources: embedVisits > 0 ? [{ referrer: 'embed', visits: embedVisits }] : [],
    formats: [],
  };
  return answer;
}
