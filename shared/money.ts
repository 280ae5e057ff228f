import { formatCount } from './format-count';

// Money is integer cents everywhere (DESIGN.md section 3); these turn it into what people read
// and type.

// Amounts are written out rather than asked of Intl.NumberFormat, which reads them the same: the
// first Intl format of a page loads the browser's locale data (shared/format-count.ts).

/** 1234 → "$12.34" (spec: USD with two decimals). */
export function formatCents(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  return `${cents < 0 ? '-' : ''}$${formatCount(Math.floor(whole / 100))}.${String(whole % 100).padStart(2, '0')}`;
}

/** 200000 → "2,000": whole dollars for limits in messages and hints (cents only when there are some). */
export function formatWholeDollars(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  const fraction = whole % 100;
  const decimals = fraction === 0 ? '' : `.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
  return `${cents < 0 ? '-' : ''}${formatCount(Math.floor(whole / 100))}${decimals}`;
}

/**
 * What a money input holds, as cents, or null for the form to refuse (issue 22). Empty, "." and
 * "," are 0 (spec part 2 section 5). A leading "$" is allowed; then digits with "." and "," as
 * separators, read the way an American or a European would have meant them:
 *
 * - The last separator is the decimal mark when one or two digits (or none: "12.") follow it:
 *   "12,5" and "12.50" are $12.50. Any separator before it must be the other character, grouping
 *   the dollars in threes: "$1,250.00" and "1.250,00" are both $1,250.00.
 * - A separator followed by exactly three digits groups thousands only when that is the one
 *   reading: repeated ("1,250,000", "1.250.000"). Alone ("1,250"), it is a thousand to an
 *   American and one and a quarter to a German, so it is refused rather than guessed.
 * - Anything else is refused: more than two decimals, groups not of three ("1,2,3", "1,25,000"),
 *   spaces, signs, letters.
 *
 * `wholeDollars`: a field that takes whole dollars (a fundraiser's minimum and goal, whose hints
 * say "$100,000") reads a lone three-digit group as thousands: "1,000" is $1,000 there, since
 * nobody types three decimals of a whole dollar amount.
 */
export function parseDollarsToCents(text: string, { wholeDollars = false } = {}): number | null {
  const value = text.trim().replace(/^\$\s*/, '');
  if (value === '') return 0;
  if (!/^[\d.,]+$/.test(value)) return null;
  const last = Math.max(value.lastIndexOf('.'), value.lastIndexOf(','));
  if (last === -1) return toCents(value, '');
  const mark = value[last]!;
  const head = value.slice(0, last);
  const tail = value.slice(last + 1);
  if (tail.length <= 2) {
    const group = mark === '.' ? ',' : '.';
    return head.includes(mark) ? null : toCents(ungrouped(head, group), tail);
  }
  if (tail.length !== 3) return null;
  // A three-digit tail: the mark groups thousands, if that is the only way to read it.
  const repeated = head.includes(mark);
  if (!repeated && !wholeDollars) return null;
  return toCents(ungrouped(value, mark), '');
}

/** "1,250,000" grouped by "," → "1250000"; null unless every group after the first has three digits. */
function ungrouped(digits: string, group: string): string | null {
  if (!digits.includes(group)) return /^\d*$/.test(digits) ? digits : null;
  const groups = digits.split(group);
  const [first, ...rest] = groups;
  if (!/^\d{1,3}$/.test(first!) || !rest.every((part) => /^\d{3}$/.test(part))) return null;
  return groups.join('');
}

function toCents(dollars: string | null, decimals: string): number | null {
  if (dollars === null) return null;
  const total = Number(dollars || '0') * 100 + Number(decimals.padEnd(2, '0'));
  return Number.isSafeInteger(total) ? total : null;
}

/** Cents as an input's text: 1200 → "12", 1250 → "12.50". */
export function centsToInput(cents: number | null | undefined): string {
  if (!cents) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** 10000000 → "100,000.00": an amount in a message, after its "$" (e.g. 'Donation must be at least $5.00'). */
export function formatDollars(cents: number): string {
  return formatCents(cents).replace('$', '');
}

/** 123450 → "1234.50": an amount for machines (a CSV cell, a giving site's link), exact to the cent. */
export function plainDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** The tip presets of the donate page (spec part 2 section 9): a share of the donation, in percent. */
export const TIP_PRESETS = [10, 20, 30] as const;
export type TipPreset = (typeof TIP_PRESETS)[number];

/** A preset's tip: that percentage of the donation, rounded to the cent (spec part 2 section 4). */
export function tipForPreset(donationCents: number, percent: number): number {
  return Math.round((donationCents * percent) / 100);
}

/**
 * The tax-deductible part of a donation (DESIGN.md section 4): what was given above the
 * fundraiser's minimum (the minimum buys the album), never below 0.
 */
export function taxDeductibleCents(donationCents: number, minimumCents: number): number {
  return Math.max(0, donationCents - minimumCents);
}
