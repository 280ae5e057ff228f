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
