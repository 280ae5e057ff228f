import { ApiError } from '../../api/errors';

// What the donate flow says when the server refuses a payment call in words meant for the donor:
// a card the provider declined (402, Stripe's wording) and too many attempts (429 RATE_LIMITED,
// saying when to try again; server/features/donations/throttles.ts). Anything else is not theirs
// to act on, and the form says so in its own words.

/** The server's own message for a refusal the donor can act on, else null. */
export function paymentRefusalText(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.status === 402 || error.code === 'RATE_LIMITED' ? error.message : null;
}
