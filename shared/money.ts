// Money is integer cents everywhere (DESIGN.md section 3); these turn it into what people read
// and type.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 1234 → "$12.34" (spec: USD with two decimals). */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** 200000 → "2,000": whole dollars for limits in messages and hints. */
export function formatWholeDollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/**
 * What a money input holds, as cents: digits with up to `decimals` decimals; empty or "." is 0
 * (spec part 2 section 5). Anything else is null, for the form to refuse.
 */
export function parseDollarsToCents(text: string, decimals: 0 | 2 = 2): number | null {
  const value = text.trim().replace(/[$,]/g, '');
  if (value === '' || value === '.') return 0;
  const pattern = decimals === 2 ? /^(\d*)(?:\.(\d{0,2}))?$/ : /^(\d*)(?:\.(0{0,2}))?$/;
  const match = value.match(pattern);
  if (!match) return null;
  const dollars = Number(match[1] || '0');
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  const total = dollars * 100 + cents;
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
