import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, parseDollarsToCents } from '../../shared/money';

// What a money field's text means (issue 22): a decimal comma is read as one, a thousands
// separator as one, and what an American and a German would read differently is refused.

describe('reading an amount typed in a money field', () => {
  it.each([
    ['', 0],
    ['.', 0],
    [',', 0],
    ['12', 1200],
    ['12.', 1200],
    ['12,', 1200],
    ['12.5', 1250],
    ['12,5', 1250],
    ['12.50', 1250],
    ['12,50', 1250],
    ['.5', 50],
    [',05', 5],
    ['$', 0],
    ['$12', 1200],
    ['  $ 12.34  ', 1234],
    ['$1,250.00', 125000],
    ['1.250,00', 125000],
    ['1,250.5', 125050],
    ['1.250,5', 125050],
    ['1,250,000', 125000000],
    ['1.250.000', 125000000],
    ['1.000.000,99', 100000099],
    ['1234,56', 123456],
    ['0012', 1200],
  ])('%j is %i cents', (text, cents) => {
    expect(parseDollarsToCents(text)).toBe(cents);
  });

  it.each([
    // A thousand to an American, one and a quarter to a German.
    '1,250',
    '1.250',
    '12,505',
    '0,001',
    // Groups that are not threes, a decimal mark twice, more than two decimals.
    '1,2,3',
    '1,25,000',
    '1,25.50',
    '1,000,5',
    '12.505.5',
    '1.2555',
    '1,000.000',
    '1.250,000',
    // Not an amount at all.
    '-5',
    '+5',
    '5$',
    '1 250',
    '12e3',
    'twelve',
    '9'.repeat(400),
  ])('%j is refused', (text) => {
    expect(parseDollarsToCents(text)).toBeNull();
  });

  it('reads a lone group of three as thousands in a whole-dollar field (a minimum, a goal)', () => {
    expect(parseDollarsToCents('1,000', { wholeDollars: true })).toBe(100000);
    expect(parseDollarsToCents('1.000', { wholeDollars: true })).toBe(100000);
    expect(parseDollarsToCents('100,000', { wholeDollars: true })).toBe(10000000);
    expect(parseDollarsToCents('5,00', { wholeDollars: true })).toBe(500);
    expect(parseDollarsToCents('2,50', { wholeDollars: true })).toBe(250);
    expect(parseDollarsToCents('1,2,3', { wholeDollars: true })).toBeNull();
    expect(parseDollarsToCents('1,000.000', { wholeDollars: true })).toBeNull();
  });

  it('gives back any amount written the American way or the German way', () => {
    const german = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (cents) => {
        const dollars = cents / 100;
        expect(parseDollarsToCents(formatCents(cents))).toBe(cents); // "$1,234.56"
        expect(parseDollarsToCents(german.format(dollars))).toBe(cents); // "1.234,56"
        expect(parseDollarsToCents(dollars.toFixed(2))).toBe(cents); // "1234.56"
        expect(parseDollarsToCents(dollars.toFixed(2).replace('.', ','))).toBe(cents); // "1234,56"
      }),
    );
  });

  it('accepts a text exactly when every way of reading it gives the same whole cents', () => {
    // The rule restated without the parser's shortcuts: read the text with "." as the decimal
    // mark and "," grouping thousands, then the other way round. A reading that does not parse
    // does not count; a reading with more than two decimals is a real reading that is not whole
    // cents, so it makes the text ambiguous or wrong, never a guess.
    const readings = (text: string) =>
      (
        [
          ['.', ','],
          [',', '.'],
        ] as const
      ).flatMap(([mark, group]) => {
        const g = `\\${group}`;
        const m = `\\${mark}`;
        const match = text.match(new RegExp(`^(\\d*|\\d{1,3}(?:${g}\\d{3})+)(?:${m}(\\d*))?$`));
        if (!match) return [];
        const decimals = match[2] ?? '';
        const whole = match[1]!.replaceAll(group, '');
        return [{ cents: decimals.length <= 2 ? Number(whole || '0') * 100 + Number(decimals.padEnd(2, '0')) : null }];
      });
    const expected = (text: string) => {
      if (text === '') return 0;
      const found = readings(text);
      if (found.length === 0) return null;
      const first = found[0]!.cents;
      return found.every((reading) => reading.cents === first) ? first : null;
    };
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.,]{0,12}$/), (text) => {
        expect(parseDollarsToCents(text)).toBe(expected(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('in a whole-dollar field, differs only by reading a lone three-digit group as thousands', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.,]{0,12}$/), (text) => {
        const strict = parseDollarsToCents(text);
        const whole = parseDollarsToCents(text, { wholeDollars: true });
        const lone = text.match(/^(\d{1,3})[.,](\d{3})$/);
        expect(whole).toBe(strict ?? (lone ? Number(lone[1]! + lone[2]!) * 100 : null));
      }),
      { numRuns: 5000 },
    );
  });
});
