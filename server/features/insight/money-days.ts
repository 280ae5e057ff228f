import { siteCalendarDate, siteCalendarDates } from '../../../shared/site-dates';
import type { Db } from '../../db/client';
import { siteDays } from '../../db/site-days';
import { latestJournalId, moneyByDay, moneyRowsAfter, moneySpan } from '../journal/service';

// Money per site day, a fundraiser's or the whole site's, kept between requests (issue 29: a
// dashboard of 100,000 donations answers in a few milliseconds). The money journal only ever gains
// rows and their ids only grow, so a sum made up to row N stays true: a later request adds the rows
// after N (a donation, a refund, a late processor event, whatever day it happened on) and nothing
// is ever counted twice. Each process keeps its own (WEB_CONCURRENCY), each database its own.

/** A day's money; tips and payouts are the site's alone (0 for a fundraiser). */
export type MoneyDay = { raisedCents: number; donations: number; tipsCents: number; paidOutCents: number };
/** A fundraiser's id, or null for the whole site. */
type Scope = number | null;
type Kept = { timeZone: string; seenId: number; byDay: Map<string, MoneyDay> };

/** Scopes kept per database: the dashboards open now; the least recently read goes first. */
const KEPT_SCOPES = 200;
/** More journal rows than this since the last read (anyone's): sum again from the start. */
const MAX_NEW_ROWS = 5000;

const keptByDatabase = new WeakMap<Db, Map<Scope, Kept>>();

function addTo(byDay: Map<string, MoneyDay>, date: string, sums: MoneyDay) {
  const day = byDay.get(date);
  if (!day) return void byDay.set(date, { ...sums });
  day.raisedCents += sums.raisedCents;
  day.donations += sums.donations;
  day.tipsCents += sums.tipsCents;
  day.paidOutCents += sums.paidOutCents;
}

/** Every day the money moved on, summed from the journal as it stands. */
function sumFromStart(db: Db, scope: Scope, timeZone: string, now: number): Map<string, MoneyDay> {
  const byDay = new Map<string, MoneyDay>();
  const span = moneySpan(db, scope);
  if (!span) return byDay;
  const today = siteCalendarDate(now, timeZone);
  const [first, last] = [span.first, span.last].map((moment) => siteCalendarDate(moment, timeZone)) as [string, string];
  // To today, or to the last row's day if one is dated later (a processor's clock ahead of ours).
  const days = siteDays(first < today ? first : today, last > today ? last : today, timeZone);
  for (const { day, ...sums } of moneyByDay(db, scope, days)) {
    const date = days.dates[day];
    if (date) addTo(byDay, date, sums);
  }
  return byDay;
}

/**
 * The money by site day ("2026-11-29" → its sums) of a fundraiser, or of the site (`scope` null),
 * as of now: read inside one transaction, so the newest id and the sums are of the same moment.
 */
export function moneyDays(
  db: Db,
  scope: Scope,
  timeZone: string,
  now = Date.now(),
): ReadonlyMap<string, Readonly<MoneyDay>> {
  let kept = keptByDatabase.get(db);
  if (!kept) keptByDatabase.set(db, (kept = new Map()));
  const keptHere = kept;
  // A read: deferred, so it takes no write lock (the database's transactions are IMMEDIATE unless
  // told), and still one snapshot from its first read to its end.
  return db.transaction(
    (tx) => {
      const latest = latestJournalId(tx);
      let found = keptHere.get(scope);
      keptHere.delete(scope);
      // Another zone, or a database restored from before it: begin again.
      if (found && (found.timeZone !== timeZone || found.seenId > latest)) found = undefined;
      // Many rows since (a busy hour, an import): summing afresh reads less than walking them all.
      if (found && latest - found.seenId > MAX_NEW_ROWS) found = undefined;
      if (found && found.seenId < latest) {
        const dayOf = siteCalendarDates(timeZone);
        for (const { occurredAt, ...sums } of moneyRowsAfter(tx, scope, found.seenId, MAX_NEW_ROWS)) {
          // Tips and payouts are the site's figures; a fundraiser's days have its money only.
          const counted = scope === null ? sums : { ...sums, tipsCents: 0, paidOutCents: 0 };
          addTo(found.byDay, dayOf(occurredAt), counted);
        }
        found.seenId = latest;
      }
      found ??= { timeZone, seenId: latest, byDay: sumFromStart(tx, scope, timeZone, now) };
      keptHere.set(scope, found);
      if (keptHere.size > KEPT_SCOPES) keptHere.delete(keptHere.keys().next().value!);
      return found.byDay;
    },
    { behavior: 'deferred' },
  );
}
