import { loadStripe, type Stripe } from '@stripe/stripe-js';

// Stripe.js, loaded once per publishable key and only when a page needs it (the payment step, or
// a donor coming back from Stripe's redirect). Imported lazily so other pages never fetch it.

const stripes = new Map<string, Promise<Stripe | null>>();

export function stripeFor(publishableKey: string) {
  let loading = stripes.get(publishableKey);
  if (!loading) {
    loading = loadStripe(publishableKey);
    stripes.set(publishableKey, loading);
  }
  return loading;
}

/** The state of the intent a donor comes back with, as Stripe reports it. */
export async function stripeIntentStatus(publishableKey: string, clientSecret: string) {
  const stripe = await stripeFor(publishableKey);
  if (!stripe) throw new Error('Stripe.js did not load.');
  const { paymentIntent, error } = await stripe.retrievePaymentIntent(clientSecret);
  if (error || !paymentIntent) throw new Error(error?.message ?? 'The payment was not found.');
  return { status: paymentIntent.status, paymentIntentId: paymentIntent.id };
}
