import { z } from 'zod';
import { messages } from '../messages';
import { cardNumberProblem, cvcProblem, expiryProblem } from '../card-checks';
import { deliveryDateProblem, donationLimits, donationMessages, TIP_CHOICES, tipOf } from '../donation-rules';
import { EMBED_SOURCE } from '../embed';
import { parseDollarsToCents } from '../money';
import { emailField, emailFieldFor, optionalText, requiredText } from './text';

// Donations and payments (spec part 2 sections 3-5 and 7; DESIGN.md "Contract details for money").
// The client checks what it can as the donor types; the server decides, with the same messages,
// and adds the one rule only it can check: the fundraiser's own minimum. The rules themselves (the
// limits, the messages, the tip) are in shared/donation-rules.ts, which the donate page reads
// before it loads zod.

const cents = (label: 'Donation' | 'Tip', missing: string, negative: string, max: string) =>
  z
    .number({ error: missing })
    .int(donationMessages.wholeCents(label))
    .min(0, negative)
    .max(donationLimits.maxCents, max);

/**
 * A gift of the album (issue 26; DESIGN.md wave 3, gifts): who it is for, what the gift email says,
 * and the day it goes out ("" or none: at once; the range is checked against the site's today).
 */
const giftSchema = z.object({
  recipientName: requiredText('Recipient name', donationLimits.recipientNameMax),
  recipientEmail: emailFieldFor('Recipient email'),
  message: optionalText('Message', donationLimits.giftMessageMax),
  deliverOn: z
    .string()
    .trim()
    .max(10, donationMessages.deliverOnInvalid)
    .nullable()
    .optional()
    .transform((value) => value || null),
});
export type GiftRequest = z.infer<typeof giftSchema>;

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
    /** Issue 26: the server adds the card fee's cover (shared/fee-cover.ts) so the charity gets it all. */
    coverFees: z.boolean().default(false),
    /** Issue 26: the album goes to someone else; the giver gets the receipt. */
    gift: giftSchema.nullable().default(null),
    /**
     * Issue 28: 'embed' when the donor came from the fundraiser's embedded player. Only an
     * attribution: a value the server does not know is no source, never a refused donation.
     */
    source: z.enum([EMBED_SOURCE]).nullable().default(null).catch(null),
  })
  .superRefine((input, ctx) => {
    if (input.gift && input.gift.recipientEmail === input.email) {
      ctx.addIssue({ code: 'custom', path: ['gift', 'recipientEmail'], message: donationMessages.giftToSelf });
    }
    if (input.projectId !== null) return;
    if (input.gift) ctx.addIssue({ code: 'custom', path: ['gift'], message: donationMessages.giftToPlatform });
    if (input.coverFees) {
      ctx.addIssue({ code: 'custom', path: ['coverFees'], message: donationMessages.coverFeesToPlatform });
    }
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

/**
 * The form of a donation to a fundraiser with this minimum, or (null) of a gift to the platform:
 * no donation, the tip is the gift (at least $1.00). `today` is the site's calendar day, which a
 * gift's delivery date is checked against (the server checks it again), asked for only then: working
 * it out in the site's zone costs a browser tens of milliseconds the first time (Intl's zone data).
 */
export function donationFormSchema(minimumCents: number | null, today: () => string) {
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
        coverFees: z.boolean(),
        isGift: z.boolean(),
        gift: z.object({
          recipientName: z.string(),
          recipientEmail: z.string(),
          message: z.string(),
          deliverOn: z.string(),
        }),
      })
      // Checked whatever else is wrong, so an empty form names every missing field at once.
      .superRefine(
        ({ tipChoice, tipCents, isGift, gift, email }, ctx) => {
          const tip = tipOf(tipChoice, tipCents, 0);
          if ('error' in tip) ctx.addIssue({ code: 'custom', path: ['tipCents'], message: tip.error });
          else if (minimumCents === null && tip.cents < donationLimits.platformGiftMinCents)
            ctx.addIssue({ code: 'custom', path: ['tipCents'], message: donationMessages.platformGiftMin });
          if (!isGift) return;
          // The gift's fields only when it is a gift: unticked, whatever was typed in them stays out.
          const parsed = giftSchema.safeParse(gift);
          for (const issue of parsed.error?.issues ?? []) {
            ctx.addIssue({ code: 'custom', path: ['gift', ...issue.path.map(String)], message: issue.message });
          }
          if (parsed.success && parsed.data.recipientEmail === email.trim().toLowerCase()) {
            ctx.addIssue({ code: 'custom', path: ['gift', 'recipientEmail'], message: donationMessages.giftToSelf });
          }
          const dateProblem = deliveryDateProblem(gift.deliverOn.trim(), today());
          if (dateProblem) ctx.addIssue({ code: 'custom', path: ['gift', 'deliverOn'], message: dateProblem });
        },
        { when: ({ value }) => typeof value === 'object' && value !== null },
      )
      .transform(({ name, email, donationCents, tipChoice, tipCents, coverFees, isGift, gift }) => {
        const tip = tipOf(tipChoice, tipCents, donationCents);
        return {
          name,
          email,
          donationCents,
          tipCents: 'cents' in tip ? tip.cents : 0,
          coverFees: minimumCents !== null && coverFees,
          gift: isGift && minimumCents !== null ? giftSchema.parse(gift) : null,
        };
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
