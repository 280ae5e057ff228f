// The card payment provider behind one interface (DESIGN.md section 2): Stripe when its keys are
// set, the built-in test provider otherwise. The donations feature asks it for intents and their
// state; it knows nothing of donations.

/** What the intent carries for whoever reads it at the processor: the donation row's id and its amounts. */
export type IntentMetadata = {
  transactionId: string;
  /** Left out for a gift to the platform, which has no fundraiser. */
  projectId?: string;
  donationCents: string;
  tipCents: string;
};

export type CreatedIntent = { id: string; clientSecret: string };

/**
 * What fulfilment needs to know of an intent: whether it was paid, and the processor's fee (null
 * while the processor has not settled the charge yet: the fee is recorded later).
 */
export type IntentState =
  | { status: 'succeeded'; feeCents: number | null }
  | { status: 'processing' | 'requires_payment_method' | 'requires_action' | 'canceled' | 'other' };

/** A provider event that changes a payment, read from a webhook whose signature checked out. */
export type PaymentEvent =
  | { id: string; type: 'payment_intent.succeeded'; paymentIntentId: string }
  | { id: string; type: 'payment_intent.payment_failed'; paymentIntentId: string }
  /**
   * A refund, whole or partial. `refundedCents` is the charge's cumulative refunded amount (each
   * event carries the total so far, so a repeat or a late one never adds); `full` when the whole
   * charge is refunded.
   */
  | { id: string; type: 'charge.refunded'; paymentIntentId: string; refundedCents: number; full: boolean }
  | { id: string; type: 'other'; paymentIntentId: null };

export type PaymentProvider = {
  kind: 'stripe' | 'test';
  /** What the client needs to load the card form (GET /api/payments/config). */
  publicConfig: { provider: 'test' } | { provider: 'stripe'; publishableKey: string };
  createIntent(amountCents: number, metadata: IntentMetadata): Promise<CreatedIntent>;
  retrieveIntent(id: string): Promise<IntentState>;
};

/** The test provider's processing fee (DESIGN.md section 4): 2.2 % + 30¢ of the payment, to the cent. */
export function estimatedFeeCents(amountCents: number): number {
  return Math.round((amountCents * 22) / 1000) + 30;
}
