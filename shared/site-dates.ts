// Calendar dates in the site's time zone (SITE_TIME_ZONE; GET /api/site answers it). A payment
// made at 01:00 UTC on Nov 27 was made on Nov 26 in Portland: money pages (the public ledger, the
// admin's transactions and disbursements) say the day it was where the site is, and so the same
// day to every viewer, wherever they are. Server and client both format through here.

const formats = new Map<string, Intl.DateTimeFormat>();

/** Intl formats are costly to build and a CSV formats thousands of dates: one per zone and kind. */
function format(timeZone: string, kind: 'date' | 'time' | 'parts'): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'date'
        ? { dateStyle: 'medium' }
        : kind === 'time'
          ? { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }
          : {
              year: 'numeric',
              month: '2-digit',
              day: '2-digit',
              hour: '2-digit',
              minute: '2-digit',
              second: '2-digit',
              hourCycle: 'h23',
            };
    found = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formats.set(key, found);
  }
  return found;
}

type Moment = string | number | Date;

/**
 * Whether `name` is a time zone of the IANA database this runtime knows ("America/New_York",
 * "UTC"), not an offset ("+05:00") nor a made-up name.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical name ("US/Pacific" → "America/Los_Angeles"), what every browser knows. */
export function canonicalTimeZone(name: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
}

/** The day a moment fell on in the site's zone, for people: "Nov 26, 2026". */
export function formatSiteDate(moment: Moment, timeZone: string): string {
  return format(timeZone, 'date').format(new Date(moment));
}

/** The time of day it was there, with the zone: "5:30 PM PST". */
export function formatSiteTime(moment: Moment, timeZone: string): string {
  return format(timeZone, 'time').format(new Date(moment));
}

/** The moment's wall clock in the zone, read as if it were UTC (so the difference is the offset). */
function wallClock(moment: number, timeZone: string) {
  const parts = Object.fromEntries(
    format(timeZone, 'parts')
      .formatToParts(new Date(moment))
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    asUtc: Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    ),
  };
}

/** The hour of the day (0-23) a moment fell in, on the zone's wall clock. */
export function siteHour(moment: Moment, timeZone: string): number {
  const at = new Date(moment).getTime();
  return new Date(wallClock(at, timeZone).asUtc).getUTCHours();
}

/** The day a moment fell on in the site's zone, for machines: "2026-11-26". */
export function siteCalendarDate(moment: Moment, timeZone: string): string {
  return wallClock(new Date(moment).getTime(), timeZone).date;
}

/**
 * "2026-11-29" → the day `days` after (or before); calendar arithmetic, no zone. Counting days
 * back as 24-hour steps from a moment is not the same: across a change of clocks, 29 × 24 hours
 * before just after midnight is 28 or 30 days back.
 */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The first moment of a calendar day ("2026-11-01") in the site's zone: what a date entered
 * without a time (a manual disbursement's date paid) is stored as, so it shows as that very day.
 */
export function startOfSiteDay(date: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, day);
  const offsetAt = (moment: number) => wallClock(moment, timeZone).asUtc - moment;
  // The offset at UTC midnight may not be the one at the zone's midnight (a clock change between
  // them): asking again at the first guess settles it.
  let start = midnightUtc - offsetAt(midnightUtc);
  start = midnightUtc - offsetAt(start);
  // Where the clocks jump at midnight, the day starts at the first moment that exists.
  while (siteCalendarDate(start, timeZone) < date) start += 15 * 60 * 1000;
  return new Date(start);
}

/**
 * siteCalendarDate for many moments in a row (a CSV of thousands of payments): each day's bounds
 * in the zone are worked out once, and moments within them need no formatting at all.
 */
export function siteCalendarDates(timeZone: string): (moment: Moment) => string {
  let day: { date: string; start: number; end: number } | undefined;
  return (moment) => {
    const at = new Date(moment).getTime();
    if (day && at >= day.start && at < day.end) return day.date;
    const date = siteCalendarDate(at, timeZone);
    const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
    const next = new Date(Date.UTC(year, month - 1, dayOfMonth + 1)).toISOString().slice(0, 10);
    day = {
      date,
      start: startOfSiteDay(date, timeZone).getTime(),
      end: startOfSiteDay(next, timeZone).getTime(),
    };
    return date;
  };
}
