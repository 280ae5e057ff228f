import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardMessages, cardNumberProblem, cvcProblem, expiryProblem, passesLuhn } from '../../shared/card-checks';

// The test provider's card checks (issue 22), as Stripe makes them: the Luhn check, the expiry
// month, the security code.

describe('card checks', () => {
  it('take Luhn-valid numbers of 13 to 19 digits, with or without spaces', () => {
    for (const number of ['4242 4242 4242 4242', '4000000000000002', '4222222222222', '378282246310005']) {
      expect(cardNumberProblem(number), number).toBeNull();
    }
    expect(cardNumberProblem('6205 5000 0000 0000 004')).toBeNull();
    expect(cardNumberProblem('4242 4242 4242 4241')).toBe(cardMessages.numberInvalid);
    expect(cardNumberProblem('4242 4242 4242')).toBe(cardMessages.numberIncomplete);
    expect(cardNumberProblem('')).toBe(cardMessages.numberIncomplete);
    expect(cardNumberProblem('4'.repeat(20))).toBe(cardMessages.numberInvalid);
    expect(cardNumberProblem('4242-4242-4242-4242')).toBe(cardMessages.numberInvalid);
  });

  it('catch every single mistyped digit, as the Luhn check promises', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (at, change) => {
        const digits = '4242424242424242'.split('');
        digits[at] = String((Number(digits[at]) + change) % 10);
        expect(passesLuhn(digits.join(''))).toBe(false);
      }),
    );
  });

  it('count a card good through the end of its month wherever that month has not ended', () => {
    const midMarch = new Date('2030-03-15T12:00:00Z');
    expect(expiryProblem('03/30', midMarch)).toBeNull();
    expect(expiryProblem('3/2030', midMarch)).toBeNull();
    // Stripe's words tell a past month of this year from a past year.
    expect(expiryProblem('02/30', midMarch)).toBe("Your card's expiration date is in the past.");
    expect(expiryProblem('12/29', midMarch)).toBe("Your card's expiration year is in the past.");
    // The first morning of April in London is still March 31 in the last time zone (UTC−12).
    expect(expiryProblem('03/30', new Date('2030-04-01T11:59:00Z'))).toBeNull();
    expect(expiryProblem('03/30', new Date('2030-04-01T12:00:00Z'))).toBe(cardMessages.expiryPast);
    // And New Year's morning is still last December there: last year is not yet past.
    expect(expiryProblem('12/30', new Date('2031-01-01T11:59:00Z'))).toBeNull();
    expect(expiryProblem('11/30', new Date('2031-01-01T11:59:00Z'))).toBe(cardMessages.expiryPast);
    expect(expiryProblem('12/30', new Date('2031-01-01T12:00:00Z'))).toBe(cardMessages.expiryYearPast);
    expect(expiryProblem('12/', midMarch)).toBe(cardMessages.expiryIncomplete);
    expect(expiryProblem('1', midMarch)).toBe(cardMessages.expiryIncomplete);
    expect(expiryProblem('', midMarch)).toBe(cardMessages.expiryIncomplete);
    expect(expiryProblem('13/31', midMarch)).toBe("Your card's expiration month is invalid.");
    expect(expiryProblem('00/31', midMarch)).toBe(cardMessages.expiryMonthInvalid);
    expect(expiryProblem('12-31', midMarch)).toBe(cardMessages.expiryInvalid);
  });

  it('want a security code of 3 or 4 digits', () => {
    expect(cvcProblem('123')).toBeNull();
    expect(cvcProblem('1234')).toBeNull();
    expect(cvcProblem('12')).toBe(cardMessages.cvcIncomplete);
    expect(cvcProblem('')).toBe(cardMessages.cvcIncomplete);
    expect(cvcProblem('12345')).toBe(cardMessages.cvcInvalid);
    expect(cvcProblem('12a')).toBe(cardMessages.cvcInvalid);
  });
});
