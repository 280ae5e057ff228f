// The checks Stripe makes of a card before it asks the bank (issue 22), with Stripe's own words,
// for the built-in test provider: its card form says them as the donor types, and its confirm call
// refuses with them (402), so the test mode teaches what Stripe's form will say.

export const cardMessages = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryInvalid: "Your card's expiration date is invalid.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  expiryYearPast: "Your card's expiration year is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  cvcInvalid: "Your card's security code is invalid.",
} as const;

export type CardDetails = { cardNumber: string; expiry: string; cvc: string };
export type CardProblem = { field: keyof CardDetails; message: string };

/** Card numbers run from 13 digits (old Visa) to 19 (some Visa, Discover, UnionPay, Maestro). */
const NUMBER_DIGITS = { min: 13, max: 19 } as const;

/** The Luhn checksum (ISO/IEC 7812-1) every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card number, with or without spaces: what is wrong with it, or null. */
export function cardNumberProblem(text: string): string | null {
  const digits = text.replace(/\s+/g, '');
  if (!/^\d*$/.test(digits)) return cardMessages.numberInvalid;
  if (digits.length < NUMBER_DIGITS.min) return cardMessages.numberIncomplete;
  if (digits.length > NUMBER_DIGITS.max || !passesLuhn(digits)) return cardMessages.numberInvalid;
  return null;
}

/**
 * A card is good through the last day of its month, and "today" differs around the world: the
 * month is taken where it ends last (UTC−12), so no donor anywhere sees this month's card refused,
 * and the form and the server agree whatever their clocks' time zones.
 */
function monthWhereItEndsLast(now: Date): { year: number; month: number } {
  const there = new Date(now.getTime() - 12 * 60 * 60 * 1000);
  return { year: there.getUTCFullYear(), month: there.getUTCMonth() + 1 };
}

/**
 * An expiry `MM/YY` (a one-digit month or a four-digit year will do): what is wrong, or null. Like
 * Stripe's form, a past year and a past month of this year are told apart.
 */
export function expiryProblem(text: string, now = new Date()): string | null {
  const match = text.replace(/\s+/g, '').match(/^(\d{1,2})(?:\/(\d{0,4}))?$/);
  if (!match) return text.trim() === '' ? cardMessages.expiryIncomplete : cardMessages.expiryInvalid;
  const [, month, year = ''] = match;
  // "1", "12/" and "12/203" are still being typed.
  if (year.length !== 2 && year.length !== 4) return cardMessages.expiryIncomplete;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return cardMessages.expiryMonthInvalid;
  const fullYear = year.length === 2 ? 2000 + Number(year) : Number(year);
  const current = monthWhereItEndsLast(now);
  if (fullYear < current.year) return cardMessages.expiryYearPast;
  if (fullYear === current.year && monthNumber < current.month) return cardMessages.expiryPast;
  return null;
}

/** A security code: 3 digits, or 4 (American Express). */
export function cvcProblem(text: string): string | null {
  const code = text.trim();
  if (!/^\d*$/.test(code)) return cardMessages.cvcInvalid;
  if (code.length < 3) return cardMessages.cvcIncomplete;
  return code.length > 4 ? cardMessages.cvcInvalid : null;
}

/** The first thing wrong with a card, in the order Stripe checks them, or null. */
export function cardProblem(card: CardDetails, now = new Date()): CardProblem | null {
  const checks: [keyof CardDetails, string | null][] = [
    ['cardNumber', cardNumberProblem(card.cardNumber)],
    ['expiry', expiryProblem(card.expiry, now)],
    ['cvc', cvcProblem(card.cvc)],
  ];
  const found = checks.find(([, message]) => message !== null);
  return found ? { field: found[0], message: found[1]! } : null;
}

const fieldOfMessage = new Map<string, keyof CardDetails>([
  [cardMessages.numberIncomplete, 'cardNumber'],
  [cardMessages.numberInvalid, 'cardNumber'],
  [cardMessages.expiryIncomplete, 'expiry'],
  [cardMessages.expiryInvalid, 'expiry'],
  [cardMessages.expiryMonthInvalid, 'expiry'],
  [cardMessages.expiryPast, 'expiry'],
  [cardMessages.expiryYearPast, 'expiry'],
  [cardMessages.cvcIncomplete, 'cvc'],
  [cardMessages.cvcInvalid, 'cvc'],
]);

/** Which field a refusal's message is about (the server's 402 words), if it is one of these. */
export function cardFieldOf(message: string): keyof CardDetails | undefined {
  return fieldOfMessage.get(message);
}
