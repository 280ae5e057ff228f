import { formatCount } from '../../../shared/format-count';
import { formatCents } from '../../../shared/money';

// How the insight pages (issue 29) write dates and numbers. An answer's dates are calendar days
// of the site's time zone ("2026-11-01"): they are read as UTC midnight and written in UTC, so no
// viewer's own zone can move a day to its neighbour.

const DAY_SECONDS = 24 * 60 * 60;

/** "2026-11-01" → its UTC midnight in seconds, the x value of a chart (uPlot counts seconds). */
export function daySeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

const formats = {
  day: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  dayOfYear: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }),
  monthOfYear: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
  year: new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone: 'UTC' }),
};

/** "2026-11-01" → "Nov 1, 2026". */
export function formatDay(date: string): string {
  return formats.day.format(daySeconds(date) * 1000);
}

/** "2026-11-01" → "Nov 1", where the year is said nearby. */
export function formatDayOfYear(date: string): string {
  return formats.dayOfYear.format(daySeconds(date) * 1000);
}

/** The period's days for people: "Nov 1 to Nov 30, 2026", "Dec 1, 2025 to Nov 30, 2026", "Nov 1, 2026". */
export function formatPeriod(first: string, last: string): string {
  if (first === last) return formatDay(first);
  if (first.slice(0, 4) !== last.slice(0, 4)) return `${formatDay(first)} to ${formatDay(last)}`;
  return `${formatDayOfYear(first)} to ${formatDay(last)}`;
}

/**
 * Where the x axis's ticks go, for days `first` to `last` (seconds, as daySeconds gives) and ticks
 * `incrSeconds` apart (uPlot's chosen increment). Days and weeks count back from the last, so the
 * latest day (or week) is always labelled; longer steps fall on the first of a month (every 1, 2, 3
 * or 6 months, on the quarter's or half-year's) or of a year.
 */
export function axisDateSplits(first: number, last: number, incrSeconds: number, step: 'day' | 'week'): number[] {
  if (step === 'week' || incrSeconds < 28 * DAY_SECONDS) {
    const splits: number[] = [];
    for (let split = last; split >= first; split -= incrSeconds) splits.unshift(split);
    return splits;
  }
  const start = new Date(first * 1000);
  const splits: number[] = [];
  if (incrSeconds < 365 * DAY_SECONDS) {
    const months = Math.max(1, Math.round(incrSeconds / (30 * DAY_SECONDS)));
    // From the first whole month in the period.
    const year = start.getUTCFullYear();
    let month = start.getUTCMonth() + (start.getUTCDate() === 1 ? 0 : 1);
    for (let split = Date.UTC(year, month, 1) / 1000; split <= last; split = Date.UTC(year, ++month, 1) / 1000) {
      if ((year * 12 + month) % months === 0) splits.push(split);
    }
    return splits;
  }
  const years = Math.max(1, Math.round(incrSeconds / (365 * DAY_SECONDS)));
  let year = start.getUTCFullYear() + (start.getUTCMonth() === 0 && start.getUTCDate() === 1 ? 0 : 1);
  for (let split = Date.UTC(year, 0, 1) / 1000; split <= last; split = Date.UTC(++year, 0, 1) / 1000) {
    if (year % years === 0) splits.push(split);
  }
  return splits;
}

/**
 * The x axis's labels for ticks `incrSeconds` apart (uPlot's chosen increment): days as "Nov 1",
 * months as "Nov" (the year with the first tick and each January), years as "2026".
 */
export function axisDateLabels(splits: readonly number[], incrSeconds: number): string[] {
  if (incrSeconds >= 365 * DAY_SECONDS) return splits.map((split) => formats.year.format(split * 1000));
  if (incrSeconds >= 28 * DAY_SECONDS) {
    return splits.map((split, index) => {
      const moment = split * 1000;
      return index === 0 || new Date(moment).getUTCMonth() === 0
        ? formats.monthOfYear.format(moment)
        : formats.month.format(moment);
    });
  }
  return splits.map((split) => formats.dayOfYear.format(split * 1000));
}

/** A short number for an axis: 950 → "950", 12500 → "12.5k", 3400000 → "3.4M". */
function compact(value: number): string {
  const whole = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (whole < 10_000) return `${sign}${formatCount(whole)}`;
  const [divisor, suffix] = whole < 1_000_000 ? [1_000, 'k'] : [1_000_000, 'M'];
  const scaled = whole / divisor;
  // One decimal while it says something ("12.5k"), none once it is long ("125k").
  const text = scaled < 100 ? String(Math.round(scaled * 10) / 10) : formatCount(Math.round(scaled));
  return `${sign}${text}${suffix}`;
}

/** A count on an axis: 950 → "950", 12500 → "12.5k". */
export function axisCount(value: number): string {
  return compact(value);
}

/** Cents on an axis: whole dollars ("$950", "$12.5k"); cents only under a dollar or off the dollar. */
export function axisMoney(cents: number): string {
  if (cents % 100 !== 0) return formatCents(cents);
  const dollars = compact(cents / 100);
  return dollars.startsWith('-') ? `-$${dollars.slice(1)}` : `$${dollars}`;
}

/**
 * The top of a chart's y axis for data up to `max`: the next round figure above it (1, 1.2, 1.5, 2,
 * 2.5, 3, 4, 5, 6 or 8 times a power of ten), so the highest bar stays under the top line; with nothing to show, a
 * small round figure ($10, 4) so a row of zeros sits on a plain grid.
 */
export function axisTop(max: number, unit: 'money' | 'count'): number {
  if (!(max > 0)) return unit === 'money' ? 1000 : 4;
  const target = max * 1.05;
  const power = 10 ** Math.floor(Math.log10(target));
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((multiple) => multiple * power >= target)!;
  // Rounded off: 1.2 × 10⁵ is 120000.00000000001 in floating point.
  const top = Number((step * power).toPrecision(12));
  // Counts are whole: an axis of 0 to 1.05 plays would have half a play on it.
  return unit === 'count' ? Math.max(Math.ceil(top), 4) : Math.max(Math.ceil(top), 100);
}

/** Each day's running total from `start`: [0, 5, 0, 10] from 100 → [100, 105, 105, 115]. */
export function runningTotals(start: number, values: readonly number[]): number[] {
  const totals: number[] = [];
  let total = start;
  for (const value of values) {
    total += value;
    totals.push(total);
  }
  return totals;
}
