import { messages } from './messages';
import { formatCents, formatDollars, parseDollarsToCents, type TipPreset, tipForPreset } from './money';

// The rules of a donation that need no schema library (DESIGN.md "Contract details for money"):
// the limits, the messages, and the tip as chosen. The donate page draws and computes its summary
// with them before zod loads (issue 24); shared/schemas/donations.ts builds the form's and the
// API's schemas on them, so the client and the server say the same thing.

export const donationLimits = {
  /** Each of donation and tip is at most $100,000 (DESIGN.md section 4). */
  maxCents: 10_000_000,
  nameMax: 100,
  /** A gift to the platform (the support page) is a tip of at least $1.00. */
  platformGiftMinCents: 100,
  /** A gift of the album to someone else (issue 26). */
  recipientNameMax: 100,
  giftMessageMax: 500,
} as const;

export const donationMessages = {
  minimum: (minimumCents: number) => messages.moneyMin('Donation', formatDollars(minimumCents)),
  donationMax: messages.moneyMax('Donation', formatDollars(donationLimits.maxCents)),
  donationNegative: messages.moneyNegative('Donation'),
  tipMax: messages.moneyMax('Tip', formatDollars(donationLimits.maxCents)),
  tipNegative: messages.moneyNegative('Tip'),
  tipRequired: 'Please choose a tip amount (can be zero)',
  /** Amounts travel as integer cents; only a broken client sends anything else. */
  wholeCents: (label: 'Donation' | 'Tip') => `${label} must be a whole number of cents.`,
  platformGiftMin: messages.moneyMin('Tip', formatDollars(donationLimits.platformGiftMinCents)),
  platformGiftNoDonation: 'A gift to the platform has no donation amount, only a tip.',
  hint: (minimumCents: number) => `Must be $${formatDollars(minimumCents)} or more`,
  /** A money field whose text is not an amount, or could be read as two (issue 22: "1,250"). */
  amount: (label: 'Donation' | 'Tip') => `${label} must be an amount in dollars, like 25 or 25.00`,
  /** Asked before paying a custom tip above the donation (issue 22). */
  largeTip: (siteName: string, tipCents: number) =>
    `Your tip to ${siteName} is ${formatCents(tipCents)} — more than your donation. Keep it?`,
  /** Asked before paying again what this browser paid the same fundraiser today (issue 22). */
  donatedToday: (donationCents: number) =>
    `You donated ${formatCents(donationCents)} to this fundraiser today. Donate again?`,
  /** Issue 26: a gift of the album goes to someone else (Bandcamp's rule: the giver does not get it). */
  giftToSelf:
    'A gift goes to someone else. Enter their email address, or donate without "This is a gift" to get the album yourself.',
  giftToPlatform: 'A gift to the platform cannot be sent to someone else.',
  coverFeesToPlatform: 'Covering the card fee is for donations to a charity.',
  deliverOnPast: 'Delivery date cannot be in the past.',
  deliverOnTooLate: 'Delivery date must be within a year from today.',
  deliverOnInvalid: 'Delivery date must be a date, like 2026-12-24.',
  /** The fee cover's checkbox before there is a donation to work it out for. */
  coverFeesUnknown: 'Cover the card fee so the charity gets all of the donation',
  /** The fee cover's checkbox (issue 26), with the donation and the cover as they stand. */
  coverFees: (donationCents: number, coverCents: number) =>
    `Cover the card fee so the charity gets all ${formatCents(donationCents)} (+${formatCents(coverCents)})`,
  declined: 'Your card was declined.',
  notSuccessful: 'Your payment was not successful, please try again.',
  paymentFormFailed: "Something went wrong! Can't load payment form.",
  unexpected: 'An unexpected error occurred.',
  missingIntent: 'Something went wrong',
  fetchFailed: 'Unable to fetch transaction details.',
  displayFailed: 'Unable to display transaction information',
} as const;

/** The tip buttons (spec part 2 section 4, Tip selection): none, a preset percentage, or custom. */
export const TIP_CHOICES = ['none', '10', '20', '30', 'custom'] as const satisfies readonly (
  'none' | 'custom' | `${TipPreset}`
)[];
export type TipChoice = (typeof TIP_CHOICES)[number];

/** The tip as chosen, in cents (a preset is its share of `donationCents`), or what is wrong with it. */
export function tipOf(
  choice: TipChoice | null,
  customText: string,
  donationCents: number,
): { cents: number } | { error: string } {
  if (choice === null) return { error: donationMessages.tipRequired };
  if (choice === 'none') return { cents: 0 };
  if (choice !== 'custom') return { cents: tipForPreset(donationCents, Number(choice)) };
  const cents = parseDollarsToCents(customText);
  if (cents === null) return { error: donationMessages.amount('Tip') };
  if (cents > donationLimits.maxCents) return { error: donationMessages.tipMax };
  return { cents };
}

/** The donation as typed, in cents, while it is being typed: 0 until it is an amount. */
export function donationOf(text: string): number {
  return parseDollarsToCents(text) ?? 0;
}

/** The built-in provider's cards (DESIGN.md section 2), shown on its form. */
export const TEST_CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** The latest day a gift may be sent on: a year from `today` (both "YYYY-MM-DD", in the site's zone). */
export function latestDeliveryDate(today: string): string {
  return `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
}

/**
 * What is wrong with a gift's delivery date, or null: "" (or none) is today, at once; else a day
 * from today to a year ahead, in the site's zone, whose morning the gift email goes out.
 */
export function deliveryDateProblem(deliverOn: string, today: string): string | null {
  if (deliverOn === '') return null;
  // A real calendar day: "2026-02-30" reads back as another day.
  const day = /^\d{4}-\d{2}-\d{2}$/.test(deliverOn) ? new Date(`${deliverOn}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== deliverOn) {
    return donationMessages.deliverOnInvalid;
  }
  if (deliverOn < today) return donationMessages.deliverOnPast;
  if (deliverOn > latestDeliveryDate(today)) return donationMessages.deliverOnTooLate;
  return null;
}
