import { serverMessages, tryAgainIn } from '../../../shared/api';
import { cardFieldOf } from '../../../shared/card-checks';
import type { Deps } from '../../deps';
import { AppError, rateLimited } from '../../errors';
import { forgetAttempt, takeAttempts, type ThrottleRule } from '../../infra/security/throttle';
import { findDonationByIntent } from './queries';

// Card testing (issue 22): someone holding stolen card numbers uses a donate form to learn which
// still work, one small payment per card, from a script. Each payment call is limited per client
// address and per donor email (the address as the accounts feature sees it, so behind a proxy
// with TRUST_PROXY the proxy's X-Forwarded-For entry). A real donor makes an intent or three
// (changing the amount, going back), retries a declined card a few times and lets the success
// page look the payment up (4 tries at most); that stays well under every limit. A script that
// cycles cards does not. Past a limit: 429 RATE_LIMITED with Retry-After and when to come back.
// The limits hold across restarts and processes (the throttle's rows are in SQLite).
//
// With Stripe, the card is confirmed at Stripe (whose own fraud checks count declines); what
// reaches us is the intent and the success page's lookup, limited here like the test provider's.

const MINUTE = 60 * 1000;

/**
 * Intents per address: 20 in 10 minutes. One donor needs a few; the rest leaves room for several
 * donors behind one address (a household, an office, a venue's wifi after a shout-out from the
 * stage), while a card-testing script gets two a minute.
 */
const intentsByIp: ThrottleRule = { bucket: 'payment-intent-ip', limit: 20, windowMs: 10 * MINUTE };
/** Intents per donor email: 10 an hour. A donor going back and forth needs a handful. */
const intentsByEmail: ThrottleRule = { bucket: 'payment-intent-email', limit: 10, windowMs: 60 * MINUTE };
/**
 * Failed confirmations per address: 10 an hour. A failure is a declined card, or a client secret
 * that names no payment (a guess); a success, a second click on a paid intent and a mistyped card
 * are taken back. Room for two donors behind one address each having a bad day with a card.
 */
const failedPaymentsByIp: ThrottleRule = { bucket: 'payment-failed-ip', limit: 10, windowMs: 60 * MINUTE };
/**
 * Failed confirmations per donor email (the intent's: the confirmation carries no email): 5 an
 * hour. A donor whose card is declined tries again, or with another card, two or three times; a
 * sixth failure in an hour is a list of cards being tried, not a donor.
 */
const failedPaymentsByEmail: ThrottleRule = { bucket: 'payment-failed-email', limit: 5, windowMs: 60 * MINUTE };
/**
 * Success-page lookups per address: 60 in 10 minutes. Each payment's page asks up to 4 times, and
 * a reload asks again; 60 covers a dozen donors behind one address. A lookup of a payment still
 * pending asks Stripe, so unlimited lookups would spend our Stripe rate limit for anyone.
 */
const lookupsByIp: ThrottleRule = { bucket: 'payment-lookup-ip', limit: 60, windowMs: 10 * MINUTE };
/** Lookups of one donor email's payments: 20 in 10 minutes, five success pages' worth. */
const lookupsByEmail: ThrottleRule = { bucket: 'payment-lookup-email', limit: 20, windowMs: 10 * MINUTE };

/** The rules that apply: the email's only when there is one (a secret or an id that names no payment has none). */
function limitsOf(byIp: [ThrottleRule, string], byEmail: [ThrottleRule, string | undefined]) {
  const [rule, email] = byEmail;
  return email === undefined ? [byIp] : [byIp, [rule, email] as const];
}

/** Counts one attempt under each rule, or refuses with `message` and when to come back. */
function take(deps: Deps, limits: ReturnType<typeof limitsOf>, message: string): number[] {
  const taken = takeAttempts(deps.db, limits);
  if ('retryAfterMs' in taken) {
    throw rateLimited(`${message} ${tryAgainIn(taken.retryAfterMs)}`, 'RATE_LIMITED', taken.retryAfterMs);
  }
  return taken.ids;
}

/** POST /api/transactions/create-payment-intent: one more intent for this address and email, or 429. */
export function admitPaymentIntent(deps: Deps, clientIp: string, email: string): void {
  take(deps, limitsOf([intentsByIp, clientIp], [intentsByEmail, email]), serverMessages.tooManyPayments);
}

/** GET /api/transactions/query: one more lookup for this address and the payment's donor, or 429. */
export function admitPaymentLookup(deps: Deps, clientIp: string, paymentIntentId: string): void {
  const email = findDonationByIntent(deps.db, paymentIntentId)?.email;
  take(deps, limitsOf([lookupsByIp, clientIp], [lookupsByEmail, email]), serverMessages.tooManyPayments);
}

/**
 * POST /api/test-payments/confirm: runs `confirm` unless this address or the intent's donor has
 * failed too often. The attempt is counted as a failure before it runs (so parallel tries are
 * limited like a sequence) and taken back when the card was paid, or the intent already was.
 */
export async function confirmWithinLimits<T>(
  deps: Deps,
  clientIp: string,
  clientSecret: string,
  confirm: () => Promise<T>,
): Promise<T> {
  const payments = deps.payments;
  const intent = payments.kind === 'test' ? payments.findByClientSecret(clientSecret) : undefined;
  const email = intent ? findDonationByIntent(deps.db, intent.id)?.email : undefined;
  const attempts = take(
    deps,
    limitsOf([failedPaymentsByIp, clientIp], [failedPaymentsByEmail, email]),
    serverMessages.tooManyDeclines,
  );
  const takeBack = () => attempts.forEach((id) => forgetAttempt(deps.db, id));
  try {
    const paid = await confirm();
    takeBack();
    return paid;
  } catch (error) {
    // A number failing the Luhn check, a past expiry or a short code is a typing mistake checked
    // here, never at a bank: it tells a card tester nothing about a real card, and a donor who
    // mistypes a few times must not be locked out for an hour. Only declines and guesses count.
    const mistyped = error instanceof AppError && error.kind === 'payment-refused' && cardFieldOf(error.message);
    if (error instanceof AppError && (error.kind === 'conflict' || mistyped)) takeBack();
    throw error;
  }
}
