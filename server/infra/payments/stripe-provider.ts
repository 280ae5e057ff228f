import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { IntentState, PaymentEvent, PaymentProvider } from './provider';

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
  /** The event of a webhook whose signature checks out (default 300 s tolerance); throws otherwise. */
  verifyWebhook(rawBody: string, signature: string): PaymentEvent;
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
      if (!balance || typeof balance !== 'object') return { status: 'succeeded', feeCents: null };
      return { status: 'succeeded', feeCents: balance.fee };
    },
    verifyWebhook(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(rawBody, signature, keys.webhookSecret);
      const object = event.data.object as {
        id?: string;
        payment_intent?: string | { id: string } | null;
        amount_refunded?: number;
        refunded?: boolean;
      };
      switch (event.type) {
        case 'payment_intent.succeeded':
        case 'payment_intent.payment_failed':
          return { id: event.id, type: event.type, paymentIntentId: String(object.id) };
        case 'charge.refunded': {
          const intent = object.payment_intent;
          const paymentIntentId = typeof intent === 'string' ? intent : intent?.id;
          if (!paymentIntentId) return { id: event.id, type: 'other', paymentIntentId: null };
          // Sent for partial refunds too: `refunded` is true only once the whole charge is.
          const full = object.refunded === true;
          const refunded = object.amount_refunded;
          const refundedCents =
            typeof refunded === 'number' && Number.isSafeInteger(refunded) && refunded > 0 ? refunded : 0;
          return { id: event.id, type: event.type, paymentIntentId, refundedCents, full };
        }
        default:
          return { id: event.id, type: 'other', paymentIntentId: null };
      }
    },
  };
}
