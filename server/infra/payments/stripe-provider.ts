import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  type BalanceTransaction,
  type IntentState,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderDispute,
  type ProviderRefund,
  WebhookSignatureError,
} from './provider';

// Stripe PaymentIntents with the real SDK (DESIGN.md section 2). STRIPE_API_URL points the SDK at
// another host: the tests' fake Stripe (tests/fixtures/fake-stripe.ts), since Stripe's servers are
// out of reach there.

export type StripeKeys = { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl?: string };

// Loaded only when Stripe is configured: a server on the test provider (a laptop's demo) need not
// hold its SDK (issue 13's footprint). The package's CommonJS build, so that this stays synchronous.
const loadStripe = () => createRequire(import.meta.url)('stripe') as typeof Stripe;

function sdk(keys: StripeKeys): Stripe {
  const Stripe = loadStripe();
  if (!keys.apiUrl) return new Stripe(keys.secretKey, { maxNetworkRetries: 2 });
  const url = new URL(keys.apiUrl);
  return new Stripe(keys.secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
  });
}

export type StripeProvider = PaymentProvider & {
  kind: 'stripe';
  /**
   * The event of a webhook whose signature checks out (default 300 s tolerance); throws
   * WebhookSignatureError otherwise. Asks Stripe for what an event leaves out (a charge's
   * refunds, a dispute's payment intent), so it may also fail as Stripe's API does.
   */
  verifyWebhook(rawBody: string, signature: string): Promise<PaymentEvent>;
};

export function stripeProvider(keys: StripeKeys): StripeProvider {
  const stripe = sdk(keys);
  return {
    kind: 'stripe',
    publicConfig: { provider: 'stripe', publishableKey: keys.publishableKey },
    async createIntent(amountCents, metadata) {
      const intent = await stripe.paymentIntents.create({
        amount: amountCents,
        currency: 'usd',
        automatic_payment_methods: { enabled: true },
        metadata,
      });
      if (!intent.client_secret) throw new Error(`Stripe gave intent ${intent.id} no client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async retrieveIntent(id): Promise<IntentState> {
      const intent = await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge.balance_transaction'] });
      if (intent.status !== 'succeeded') {
        const known = ['processing', 'requires_payment_method', 'requires_action', 'canceled'] as const;
        const status = known.find((candidate) => candidate === intent.status) ?? 'other';
        return { status };
      }
      const charge = intent.latest_charge;
      const balance = typeof charge === 'object' && charge ? charge.balance_transaction : null;
      // Stripe may settle a charge (its balance transaction, so its fee) after the intent
      // succeeded. The payment is made all the same: fulfilment goes ahead, and the fee is
      // recorded when Stripe knows it rather than guessed.
      if (!balance || typeof balance !== 'object') return { status: 'succeeded', fee: null };
      return { status: 'succeeded', fee: { providerId: balance.id, feeCents: balance.fee } };
    },
    async verifyWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, keys.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
      }
      const other = { id: event.id, type: 'other', paymentIntentId: null } as const;
      switch (event.type) {
        case 'payment_intent.succeeded':
        case 'payment_intent.payment_failed':
          return { id: event.id, type: event.type, paymentIntentId: event.data.object.id };
        case 'charge.refunded': {
          const charge = event.data.object;
          const paymentIntentId = idOf(charge.payment_intent);
          if (!paymentIntentId) return other;
          return { id: event.id, type: 'refunds', paymentIntentId, refunds: await refundsOf(charge, paymentIntentId) };
        }
        case 'charge.refund.updated':
        case 'refund.created':
        case 'refund.updated':
        case 'refund.failed': {
          const refund = event.data.object;
          const paymentIntentId = idOf(refund.payment_intent);
          if (!paymentIntentId) return other;
          return { id: event.id, type: 'refunds', paymentIntentId, refunds: [refundOf(refund)] };
        }
        case 'charge.dispute.created':
        case 'charge.dispute.updated':
        case 'charge.dispute.closed':
        case 'charge.dispute.funds_withdrawn':
        case 'charge.dispute.funds_reinstated': {
          const dispute = event.data.object;
          const paymentIntentId =
            idOf(dispute.payment_intent) ?? idOf((await stripe.charges.retrieve(idOf(dispute.charge)!)).payment_intent);
          if (!paymentIntentId) return other;
          return { id: event.id, type: 'dispute', paymentIntentId, dispute: disputeOf(dispute) };
        }
        default:
          return other;
      }
    },
    async balanceTransactions(from, to) {
      const found: BalanceTransaction[] = [];
      const listed = stripe.balanceTransactions.list({
        created: { gte: Math.floor(from.getTime() / 1000), lt: Math.ceil(to.getTime() / 1000) },
        limit: 100,
        expand: ['data.source'],
      });
      for await (const transaction of listed) {
        const kept = balanceTransactionOf(transaction);
        if (kept) found.push(kept);
      }
      return found;
    },
  };

  /** The charge's refunds: as the event carries them when it does, else as Stripe lists them. */
  async function refundsOf(charge: Stripe.Charge, paymentIntentId: string): Promise<ProviderRefund[]> {
    if (charge.refunds && !charge.refunds.has_more) return charge.refunds.data.map(refundOf);
    const refunds: ProviderRefund[] = [];
    for await (const refund of stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
      refunds.push(refundOf(refund));
    }
    return refunds;
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

const REFUND_STATUSES = ['succeeded', 'pending', 'requires_action', 'failed', 'canceled'] as const;

function refundOf(refund: Stripe.Refund): ProviderRefund {
  // An unknown status counts the refund as made: the money is held back rather than paid out.
  const status = REFUND_STATUSES.find((known) => known === refund.status) ?? 'pending';
  return { id: refund.id, amountCents: refund.amount, status };
}

/**
 * A dispute's outcome: won (or an inquiry closed without a chargeback) gives the money back; lost
 * keeps it out; anything else is still open, and the amount stays out of the charity's balance.
 */
function disputeOf(dispute: Stripe.Dispute): ProviderDispute {
  const outcome =
    dispute.status === 'won' || dispute.status === 'warning_closed'
      ? 'won'
      : dispute.status === 'lost'
        ? 'lost'
        : 'open';
  const feeCents = (dispute.balance_transactions ?? []).reduce((sum, transaction) => sum + transaction.fee, 0);
  return { id: dispute.id, amountCents: dispute.amount, feeCents, outcome };
}

/** A balance transaction the journal has a row for, named by what it moved money for; others are left out. */
function balanceTransactionOf(transaction: Stripe.BalanceTransaction): BalanceTransaction | undefined {
  const source = transaction.source;
  const sourceId = idOf(source as string | { id: string } | null);
  if (!sourceId) return undefined;
  const base = {
    id: transaction.id,
    amountCents: transaction.amount,
    feeCents: transaction.fee,
    createdAt: new Date(transaction.created * 1000),
  };
  switch (transaction.type) {
    case 'charge':
    case 'payment': {
      const paymentIntentId =
        typeof source === 'object' && source && 'payment_intent' in source
          ? idOf(source.payment_intent as string | { id: string } | null)
          : undefined;
      return paymentIntentId ? { ...base, type: 'charge', sourceId: paymentIntentId } : undefined;
    }
    case 'refund':
    case 'payment_refund':
      return { ...base, type: 'refund', sourceId };
    case 'refund_failure':
    case 'payment_failure_refund':
      return { ...base, type: 'refund_failure', sourceId };
    case 'adjustment':
      // A dispute's withdrawal and reinstatement are adjustments whose source is the dispute.
      return sourceId.startsWith('dp_') || sourceId.startsWith('du_')
        ? { ...base, type: 'dispute', sourceId }
        : undefined;
    default:
      return undefined;
  }
}
