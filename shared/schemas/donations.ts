import { z } from 'zod';
import { messages } from '../messages';
import { cardNumberProblem, cvcProblem, expiryProblem } from '../card-checks';
import { formatDollars } from '../money';
import { emailField, requiredText } from './text';

// Donations and payments (spec part 2 sections 3-5 and 7; DESIGN.md "Contract details for money").
// The client checks what it can as the donor types; the server decides, with the same messages,
// and adds the one rule only it can check: the fundraiser's own minimum.

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
  declined: 'Your card was declined.',
  notSuccessful: 'Your payment was not successful, please try again.',
  paymentFormFailed: "Something went wrong! Can't load payment form.",
  unexpected: 'An unexpected error occurred.',
  missingIntent: 'Something went wrong',
  fetchFailed: 'Unable to fetch transaction details.',
  displayFailed: 'Unable to display transaction information',
} as const;

const cents = (label: 'Donation' | 'Tip', missing: string, negative: string, max: string) =>
  z
    .number({ error: missing })
    .int(donationMessages.wholeCents(label))
    .min(0, negative)
    .max(donationLimits.maxCents, max);

/** POST /api/transactions/create-payment-intent. `projectId: null` is a gift to the platform. */
export const paymentIntentRequestSchema = z
  .object({
    name: requiredText('Name', donationLimits.nameMax),
    email: emailField,
    donationCents: cents(
      'Donation',
      messages.required('Donation'),
      donationMessages.donationNegative,
      donationMessages.donationMax,
    ),
    // No tip chosen (spec part 2 section 4, Tip selection): the spec's own words.
    tipCents: cents('Tip', donationMessages.tipRequired, donationMessages.tipNegative, donationMessages.tipMax),
    projectId: z.number().int().positive().nullable(),
  })
  .superRefine((input, ctx) => {
    if (input.projectId !== null) return;
    // The support page: no fundraiser, so no donation; the tip is the gift.
    if (input.donationCents !== 0) {
      ctx.addIssue({ code: 'custom', path: ['donationCents'], message: donationMessages.platformGiftNoDonation });
    }
    if (input.tipCents < donationLimits.platformGiftMinCents) {
      ctx.addIssue({ code: 'custom', path: ['tipCents'], message: donationMessages.platformGiftMin });
    }
  });
export type PaymentIntentRequest = z.infer<typeof paymentIntentRequestSchema>;

/**
 * POST /api/test-payments/confirm: the built-in test provider's card. Only the shape is checked
 * here (400); what Stripe would refuse (the Luhn check, a past expiry, a short code) the provider
 * refuses with Stripe's words and 402 (shared/card-checks.ts; DESIGN.md wave 3, corrections).
 */
export const testCardSchema = z.object({
  clientSecret: z.string().min(1).max(300),
  cardNumber: z.string({ error: messages.required('Card number') }).max(100, messages.max('Card number', 100)),
  expiry: z.string({ error: messages.required('Expiry') }).max(20, messages.max('Expiry', 20)),
  cvc: z.string({ error: messages.required('CVC') }).max(20, messages.max('CVC', 20)),
});
export type TestCardInput = z.input<typeof testCardSchema>;

const cardField = (problem: (text: string) => string | null) =>
  z.string().superRefine((text, ctx) => {
    const message = problem(text);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The test provider's card form: each field checked as Stripe's form checks it, in its words. */
export const testCardFormSchema = z.object({
  cardNumber: cardField(cardNumberProblem),
  expiry: cardField((text) => expiryProblem(text)),
  cvc: cardField(cvcProblem),
});

/** The built-in provider's cards (DESIGN.md section 2), shown on its form. */
export const TEST_CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;
