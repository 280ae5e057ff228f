import * as z from 'zod/mini';

// What the donation calls answer (spec part 2 sections 3 and 7; DESIGN.md contract details).

export const paymentIntentSchema = z.object({ clientSecret: z.string(), paymentIntentId: z.string() });

/** GET /api/payments/config: which provider takes the card. */
export const paymentConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('test') }),
  z.object({ provider: z.literal('stripe'), publishableKey: z.string() }),
]);
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

export const testConfirmResultSchema = z.object({ status: z.literal('succeeded'), paymentIntentId: z.string() });

/** GET /api/test-payments/intent?clientSecret=: what the donate page asks when the donor comes back. */
export const testIntentStatusSchema = z.object({
  status: z.enum(['requires_payment_method', 'succeeded']),
  paymentIntentId: z.string(),
  lastError: z.nullable(z.string()),
});

/** GET /api/transactions/query: the success page's summary, once the payment is fulfilled. */
export const transactionSummarySchema = z.object({
  donationCents: z.int(),
  tipCents: z.int(),
  taxDeductibleCents: z.int(),
  email: z.string(),
  project: z.nullable(z.object({ name: z.string(), artistName: z.string(), image: z.nullable(z.string()) })),
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
  expiresAt: z.string(),
});
export type PurchaseLink = z.infer<typeof purchaseLinkSchema>;
