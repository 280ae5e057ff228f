import type { QueryClient } from '@tanstack/react-query';
import { transactionSummaryQueryOptions } from './donations-api';

// Paying twice by accident (issue 22): a donor who goes Back from the success page and donates
// again to the same fundraiser from the same email within a day is asked first. Only this browser's
// own payments are remembered, here in localStorage: the server never tells a caller whether some
// address donated (anyone can type anyone's email). Entries older than a day are dropped.

const KEY = 'soundcause-recent-donations';
const DAY_MS = 24 * 60 * 60 * 1000;

export type DonationMemo = { paymentIntentId: string; fundraiserId: number; email: string; donationCents: number };

/**
 * `paid`: the test provider confirmed it here. Stripe's form leaves for its own pages (the bank's
 * check, the success page), so its payments are written down before they go, unpaid, and asked
 * about when it matters.
 */
type Remembered = DonationMemo & { at: number; paid: boolean };

function isRemembered(value: unknown): value is Remembered {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.paymentIntentId === 'string' &&
    typeof entry.fundraiserId === 'number' &&
    typeof entry.email === 'string' &&
    typeof entry.donationCents === 'number' &&
    typeof entry.at === 'number' &&
    typeof entry.paid === 'boolean'
  );
}

/**
 * The entries of the last 24 hours. What is older (or junk) also leaves the storage here, not only
 * at the next donation: an address stays in this browser no longer than the notice needs it.
 */
function read(now: number): Remembered[] {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? '[]');
  } catch {
    stored = null;
  }
  const kept = Array.isArray(stored) ? stored.filter(isRemembered).filter((entry) => now - entry.at < DAY_MS) : [];
  if (!Array.isArray(stored) || kept.length !== stored.length) write(kept);
  return kept;
}

function write(entries: Remembered[]) {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage full or turned off: the notice is a courtesy, the payment goes on without it.
  }
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Writes down a payment made in this browser; again, to say it was paid (keeping its time). */
export function rememberDonation(memo: DonationMemo, paid: boolean) {
  const now = Date.now();
  const entries = read(now);
  const before = entries.find((entry) => entry.paymentIntentId === memo.paymentIntentId);
  const others = entries.filter((entry) => entry !== before);
  write([...others, { ...memo, email: memo.email.trim().toLowerCase(), at: before?.at ?? now, paid }]);
}

/** Forgets a payment that did not go through. */
export function forgetDonation(paymentIntentId: string) {
  write(read(Date.now()).filter((entry) => entry.paymentIntentId !== paymentIntentId));
}

/**
 * The donation (in cents) this browser last paid to `fundraiserId` from `email` within the last
 * 24 hours, or null. A payment that left for Stripe is asked about once (the success page's own
 * lookup, which needs the intent's id: only this browser has it).
 */
export async function donatedToday(
  queryClient: QueryClient,
  fundraiserId: number,
  email: string,
): Promise<number | null> {
  const matching = read(Date.now())
    .filter((entry) => entry.fundraiserId === fundraiserId && sameEmail(entry.email, email))
    .sort((a, b) => b.at - a.at);
  for (const entry of matching) {
    if (entry.paid) return entry.donationCents;
    try {
      const summary = await queryClient.fetchQuery({
        ...transactionSummaryQueryOptions(entry.paymentIntentId),
        retry: false,
      });
      rememberDonation(entry, true);
      return summary.donationCents;
    } catch {
      // Not paid (or not yet): it does not count.
    }
  }
  return null;
}
