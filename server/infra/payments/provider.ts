import { DEFAULT_FEE_RATES, processorFeeCents } from '../../../shared/fee-cover';
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
  /** The donor's cover of the card fee (issue 26): the charge is donation + tip + this. */
  feeCoverCents: string;
};

export type CreatedIntent = { id: string; clientSecret: string };

/** A fee as the processor reports it: its balance transaction's id and the fee. */
export type ReportedFee = { providerId: string; feeCents: number };

/**
 * What fulfilment needs to know of an intent: whether it was paid, and the processor's fee (null
 * while the processor has not settled the charge yet: the fee is recorded later).
 */
export type IntentState =
  | { status: 'succeeded'; fee: ReportedFee | null }
  | { status: 'processing' | 'requires_payment_method' | 'requires_action' | 'canceled' | 'other' };

/** A refund as the processor tells it; failed and canceled ones gave nothing back. */
export type ProviderRefund = {
  id: string;
  amountCents: number;
  status: 'succeeded' | 'pending' | 'requires_action' | 'failed' | 'canceled';
};

/** A dispute (a chargeback) as the processor tells it. */
export type ProviderDispute = {
  id: string;
  amountCents: number;
  /** The processor's dispute fees so far, net of any it gave back. */
  feeCents: number;
  outcome: 'open' | 'won' | 'lost';
};

/** A provider event that changes a payment, read from a webhook whose signature checked out. */
export type PaymentEvent =
  | { id: string; type: 'payment_intent.succeeded'; paymentIntentId: string }
  | { id: string; type: 'payment_intent.payment_failed'; paymentIntentId: string }
  /** The payment's refunds, or one of them, as they stand now (each by its own id). */
  | { id: string; type: 'refunds'; paymentIntentId: string; refunds: ProviderRefund[] }
  | { id: string; type: 'dispute'; paymentIntentId: string; dispute: ProviderDispute }
  | { id: string; type: 'other'; paymentIntentId: null };

/** A webhook whose signature does not check out (a forgery, a stale or a tampered delivery). */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * One movement of the processor's balance (Stripe's balance transactions), read for the
 * reconciliation: `sourceId` is what it moved money for, in the journal's terms: the payment
 * intent of a charge, the refund of a refund or its failure, the dispute of a dispute's adjustment.
 */
export type BalanceTransaction = {
  id: string;
  type: 'charge' | 'refund' | 'refund_failure' | 'dispute';
  sourceId: string;
  amountCents: number;
  feeCents: number;
  createdAt: Date;
};

export type PaymentProvider = {
  kind: 'stripe' | 'test';
  /** What the client needs to load the card form (GET /api/payments/config). */
  publicConfig: { provider: 'test' } | { provider: 'stripe'; publishableKey: string };
  createIntent(amountCents: number, metadata: IntentMetadata): Promise<CreatedIntent>;
  retrieveIntent(id: string): Promise<IntentState>;
  /** The processor's balance transactions created in [from, to), of the kinds the journal keeps. */
  balanceTransactions(from: Date, to: Date): Promise<BalanceTransaction[]>;
};

/** The test provider's processing fee (DESIGN.md section 4): 2.2 % + 30¢ of the payment, to the cent. */
export function estimatedFeeCents(amountCents: number): number {
  return processorFeeCents(amountCents, DEFAULT_FEE_RATES);
}
