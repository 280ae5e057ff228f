import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../shared/format-count';
import { formatCents, formatDollars, formatWholeDollars } from '../../shared/money';

// Amounts and counts are written out by hand (shared/format-count.ts: the first Intl format of a
// page loads the browser's locale data); they must read exactly as Intl's en-US formats would.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
// `+ 0`: no -0 (Intl writes "-$0.00"); cents are never negative zero.
const anyCents = fc
  .oneof(fc.integer({ min: -100_000_000_000, max: 100_000_000_000 }), fc.integer({ min: -100_000, max: 100_000 }))
  .map((cents) => cents + 0);

describe('amounts as people read them', () => {
  it('formatCents reads as Intl writes US dollars', () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 1234, 100_000, 123_456_789, 10_000_000, -1, -1234])
      expect(formatCents(cents)).toBe(usd.format(cents / 100));
    fc.assert(
      fc.property(anyCents, (cents) => {
        expect(formatCents(cents)).toBe(usd.format(cents / 100));
      }),
    );
  });

  it('formatWholeDollars drops cents that are not there, as toLocaleString does', () => {
    expect(formatWholeDollars(200_000)).toBe('2,000');
    expect(formatWholeDollars(123_450)).toBe('1,234.5');
    expect(formatWholeDollars(5)).toBe('0.05');
    fc.assert(
      fc.property(anyCents, (cents) => {
        expect(formatWholeDollars(cents)).toBe((cents / 100).toLocaleString('en-US', { maximumFractionDigits: 2 }));
      }),
    );
  });

  it('formatCount groups a whole number as toLocaleString does', () => {
    expect(formatCount(10_000)).toBe('10,000');
    expect(formatCount(999)).toBe('999');
    fc.assert(
      fc.property(anyCents, (count) => {
        expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
      }),
    );
  });

  it('formatDollars is formatCents without its sign', () => {
    expect(formatDollars(10_000_000)).toBe('100,000.00');
  });
});
