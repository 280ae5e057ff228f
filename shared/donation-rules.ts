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
