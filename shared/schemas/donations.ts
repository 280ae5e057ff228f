import { z } from 'zod';
import { messages } from '../messages';
import { cardNumberProblem, cvcProblem, expiryProblem } from '../card-checks';
import { formatCents, formatDollars, parseDollarsToCents, type TipPreset, tipForPreset } from '../money';
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

// ---------------------------------------------------------------------------------------------
// The donate page's form (spec part 2 sections 2, 4 and 5): the fields as typed, named like the
// payload's keys so the server's formErrors land on them, turned into the payload's amounts.

/** The tip buttons (spec part 2 section 4, Tip selection): none, a preset percentage, or custom. */
export const TIP_CHOICES = ['none', '10', '20', '30', 'custom'] as const satisfies readonly (
  'none' | 'custom' | `${TipPreset}`
)[];
export type TipChoice = (typeof TIP_CHOICES)[number];

/** A money field's text as cents; the amount message when it is not one amount (shared/money.ts). */
function moneyText(label: 'Donation' | 'Tip') {
  return z.string().transform((text, ctx) => {
    const cents = parseDollarsToCents(text);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: donationMessages.amount(label) });
      return z.NEVER;
    }
    return cents;
  });
}

const customTipText = moneyText('Tip').pipe(z.number().max(donationLimits.maxCents, donationMessages.tipMax));

/** The tip as chosen, in cents (a preset is its share of `donationCents`), or what is wrong with it. */
export function tipOf(
  choice: TipChoice | null,
  customText: string,
  donationCents: number,
): { cents: number } | { error: string } {
  if (choice === null) return { error: donationMessages.tipRequired };
  if (choice === 'none') return { cents: 0 };
  if (choice !== 'custom') return { cents: tipForPreset(donationCents, Number(choice)) };
  const read = customTipText.safeParse(customText);
  return read.success
    ? { cents: read.data }
    : { error: read.error.issues[0]?.message ?? donationMessages.amount('Tip') };
}

/** The donation as typed, in cents, while it is being typed: 0 until it is an amount. */
export function donationOf(text: string): number {
  return parseDollarsToCents(text) ?? 0;
}

/**
 * The form of a donation to a fundraiser with this minimum, or (null) of a gift to the platform:
 * no donation, the tip is the gift (at least $1.00).
 */
export function donationFormSchema(minimumCents: number | null) {
  const donation =
    minimumCents === null
      ? z.string().transform(() => 0)
      : moneyText('Donation').pipe(
          z
            .number()
            .min(minimumCents, donationMessages.minimum(minimumCents))
            .max(donationLimits.maxCents, donationMessages.donationMax),
        );
  return (
    z
      .object({
        name: requiredText('Name', donationLimits.nameMax),
        email: emailField,
        donationCents: donation,
        tipChoice: z.enum(TIP_CHOICES).nullable(),
        tipCents: z.string(),
      })
      // Checked whatever else is wrong, so an empty form names every missing field at once.
      .superRefine(
        ({ tipChoice, tipCents }, ctx) => {
          const tip = tipOf(tipChoice, tipCents, 0);
          if ('error' in tip) ctx.addIssue({ code: 'custom', path: ['tipCents'], message: tip.error });
          else if (minimumCents === null && tip.cents < donationLimits.platformGiftMinCents)
            ctx.addIssue({ code: 'custom', path: ['tipCents'], message: donationMessages.platformGiftMin });
        },
        { when: ({ value }) => typeof value === 'object' && value !== null },
      )
      .transform(({ name, email, donationCents, tipChoice, tipCents }) => {
        const tip = tipOf(tipChoice, tipCents, donationCents);
        return { name, email, donationCents, tipCents: 'cents' in tip ? tip.cents : 0 };
      })
  );
}
export type DonationFormValues = z.input<ReturnType<typeof donationFormSchema>>;

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
