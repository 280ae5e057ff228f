import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { addDays, siteCalendarDate, startOfSiteDay } from '../../shared/site-dates';

// Calendar days in the site's time zone, as SQL can group by them (issue 29's insight): a money
// row's day is where the site is, and SQLite knows no time zones. Within a run of days that share
// one UTC offset, a moment's day is (moment + offset) / one day; a day whose offset changes on
// the way (a clock change, a midnight that does not exist) is a bucket of its own. A year is a
// handful of such runs, so one CASE sorts every row in one pass over the index.

const DAY_MS = 24 * 60 * 60 * 1000;

export { addDays };

export type SiteDays = {
  /** Each calendar day, oldest first. */
  dates: string[];
  /** When each began (ms), and then when the day after the last began: one more than `dates`. */
  starts: number[];
};

const known = new Map<string, SiteDays>();
const KEPT_DAYS_MAX = 100_000;
let keptDays = 0;

/** Every day from `first` to `last` (both in) with the moments they began in `timeZone`. */
export function siteDays(first: string, last: string, timeZone: string): SiteDays {
  const key = `${timeZone} ${first} ${last}`;
  const found = known.get(key);
  if (found) return found;
  const dates: string[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) dates.push(date);
  const starts = [startOfSiteDay(first, timeZone).getTime()];
  for (const date of [...dates.slice(1), addDays(last, 1)]) {
    const previous = starts.at(-1)!;
    // Most days are 24 hours long: one look at each side of the guess settles it.
    const guess = previous + DAY_MS;
    const exact = siteCalendarDate(guess, timeZone) === date && siteCalendarDate(guess - 1, timeZone) < date;
    starts.push(exact ? guess : startOfSiteDay(date, timeZone).getTime());
  }
  const days = { dates, starts };
  // A dashboard asks for the same few periods all day; their bounds are kept, up to about a
  // hundred thousand days in all (any caller may ask for any period up to ten years).
  keptDays += dates.length;
  known.set(key, days);
  while (keptDays > KEPT_DAYS_MAX && known.size > 1) {
    const oldest = known.keys().next().value!;
    keptDays -= known.get(oldest)!.dates.length;
    known.delete(oldest);
  }
  return days;
}

/**
 * The index in `days.dates` of the day `moment` (a column of ms) fell on; -1 before the first day,
 * `dates.length` after the last.
 */
export function siteDayIndex(moment: SQLWrapper, days: SiteDays): SQL<number> {
  // Written into the SQL, not bound: SQLite receives a bound number as REAL, and the day number
  // must come of integer division. Each is an integer this function worked out, never input.
  const int = (value: number) => sql.raw(String(Math.trunc(value)));
  const { dates, starts } = days;
  const midnights = dates.map((date) => Date.parse(`${date}T00:00:00Z`));
  midnights.push(Date.parse(`${addDays(dates.at(-1) ?? '1970-01-01', 1)}T00:00:00Z`));
  const offsets = starts.map((start, i) => midnights[i]! - start);
  const firstDayNumber = midnights[0]! / DAY_MS;
  const branches: SQL[] = [sql`when ${moment} < ${int(starts[0]!)} then -1`];
  let i = 0;
  while (i < dates.length) {
    if (offsets[i] !== offsets[i + 1]) {
      branches.push(sql`when ${moment} < ${int(starts[i + 1]!)} then ${int(i)}`);
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < dates.length && offsets[end] === offsets[i] && offsets[end + 1] === offsets[i]) end += 1;
    branches.push(
      sql`when ${moment} < ${int(starts[end]!)} then (${moment} + ${int(offsets[i]!)}) / ${int(DAY_MS)} - ${int(firstDayNumber)}`,
    );
    i = end;
  }
  return sql<number>`(case ${sql.join(branches, sql` `)} else ${int(dates.length)} end)`;
}
