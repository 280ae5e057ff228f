import * as z from 'zod/mini';

// What the donation calls answer (spec part 2 sections 3 and 7; DESIGN.md contract details).

export const paymentIntentSchema = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  /** What the card is charged: donation + tip + the fee's cover (issue 26). */
  amountCents: z.int(),
  feeCoverCents: z.int(),
});

/** The rates the card fee's cover is worked out at (shared/fee-cover.ts): the donate page shows it. */
const feeRatesSchema = z.object({ basisPoints: z.int(), fixedCents: z.int() });

/** GET /api/payments/config: which provider takes the card, and the fee cover's rates. */
export const paymentConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('test'), feeRates: feeRatesSchema }),
  z.object({ provider: z.literal('stripe'), publishableKey: z.string(), feeRates: feeRatesSchema }),
]);
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

export const testConfirmResultSchema = z.object({ status: z.literal('succeeded'), paymentIntentId: z.string() });

/** GET /api/test-payments/intent?clientSecret=: what the donate page asks when the donor comes back. */
export const testIntentStatusSchema = z.object({
  status: z.enum(['requires_payment_method', 'succeeded']),
  paymentIntentId: z.string(),
  lastError: z.nullable(z.string()),
});

/**
 * A bought track for a buyer without a session: `src` is its full stream with a grant in the URL
 * (server/access/url-grants.ts), which plays, Range and all, until the grant expires.
 */
export const grantedTrackSchema = z.object({
  id: z.int(),
  name: z.string(),
  durationSeconds: z.nullable(z.number()),
  src: z.string(),
});
export type GrantedTrack = z.infer<typeof grantedTrackSchema>;

/** GET /api/transactions/query: the success page's summary, once the payment is fulfilled. */
export const transactionSummarySchema = z.object({
  donationCents: z.int(),
  tipCents: z.int(),
  /** What the donor added to cover the card fee (issue 26): the charity's, and tax-deductible. */
  feeCoverCents: z.int(),
  /** A gift (issue 26): the album went to someone else, so there is none to play here. */
  gift: z.nullable(z.object({ recipientName: z.string() })),
  taxDeductibleCents: z.int(),
  /** The fundraiser's minimum when the donation was made: the tax-deductible part is above it. */
  minimumCents: z.int(),
  email: z.string(),
  project: z.nullable(
    z.object({
      id: z.int(),
      name: z.string(),
      urlSlug: z.string(),
      artistName: z.string(),
      image: z.nullable(z.string()),
    }),
  ),
  /** Who the donation went to; null for a gift to the platform. */
  charity: z.nullable(z.object({ name: z.string(), ein: z.string() })),
  /** The album to play at once, for a day after the payment (then the receipt's link takes over). */
  tracks: z.array(grantedTrackSchema),
  /** The album's zip under the same grant; null when there is none to give. */
  downloadUrl: z.nullable(z.string()),
});
export type TransactionSummary = z.infer<typeof transactionSummarySchema>;

/** GET /api/purchases/{token}: the receipt's link. */
export const purchaseLinkSchema = z.object({
  project: z.object({
    id: z.int(),
    name: z.string(),
    urlSlug: z.string(),
    artistName: z.string(),
    image: z.nullable(z.string()),
  }),
  /** The buyer's address: the link's holder is the buyer (it prefills their sign-up). */
  email: z.string(),
  expiresAt: z.string(),
  tracks: z.array(grantedTrackSchema),
  /** A gift (issue 26): who sent it, and their message. */
  gift: z.nullable(z.object({ fromName: z.string(), message: z.string() })),
});
export type PurchaseLink = z.infer<typeof purchaseLinkSchema>;
