// The donations feature's arithmetic, in integer cents, in one place (the money rule of
// DEVELOPERS.md). The donate page shows the same rules from shared/money.ts; this decides.

/**
 * The charity's share of the processor's fee (DESIGN.md section 4): in proportion to the
 * donation's part of the payment, donation / (donation + tip), rounded to the cent. The platform
 * carries the rest, so the two shares always add up to the fee.
 */
export function charityFeeShare(feeCents: number, donationCents: number, tipCents: number): number {
  const total = donationCents + tipCents;
  if (total <= 0 || donationCents <= 0) return 0;
  return Math.round((feeCents * donationCents) / total);
}
