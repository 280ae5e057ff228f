// Covering the card fee (issue 26; DESIGN.md wave 3, "cover the fees"): the donor adds what makes
// the charity's share of the payment, after its share of the processor's fee, at least the whole
// donation. In integer cents, in this one place: the server computes the figure a payment is made
// with; the donate page computes the same figure to show it while the donor types (the rates come
// with GET /api/payments/config), and pays what the server answered.

/** The processor's rates the cover is worked out at: FEE_PERCENT (as basis points) and FEE_FIXED_CENTS. */
export type FeeRates = { basisPoints: number; fixedCents: number };

/** FEE_PERCENT's and FEE_FIXED_CENTS's defaults: 2.2 % + 30¢, the test provider's own fee (DESIGN.md section 4). */
export const DEFAULT_FEE_RATES: FeeRates = { basisPoints: 220, fixedCents: 30 };

/** The processor's published fee on a payment at these rates, to the cent. */
export function processorFeeCents(paymentCents: number, rates: FeeRates): number {
  return Math.round((paymentCents * rates.basisPoints) / 10_000) + rates.fixedCents;
}

/**
 * The charity's share of the processor's fee (DESIGN.md section 4): the fee of the money it keeps,
 * at the payment's rate (fee / payment), to the cent. Stripe keeps its fee when it refunds, so the
 * fee of money that went back is the platform's to carry; with nothing back this is the charity's
 * proportional share of the whole fee. The money journal splits every fee with it.
 */
export function charityFeeShare(feeCents: number, keptCents: number, paymentTotalCents: number): number {
  if (paymentTotalCents <= 0 || keptCents <= 0) return 0;
  return Math.round((feeCents * keptCents) / paymentTotalCents);
}

/** Whether `coverCents` on top leaves the charity the whole donation after its share of the fee. */
function covers(donationCents: number, tipCents: number, coverCents: number, rates: FeeRates): boolean {
  const payment = donationCents + tipCents + coverCents;
  const charityMoney = donationCents + coverCents;
  return charityMoney - charityFeeShare(processorFeeCents(payment, rates), charityMoney, payment) >= donationCents;
}

/**
 * The least cover, in whole cents, after which the charity keeps at least the whole donation. The
 * cover itself pays fee too (it is part of the payment), so the figure is found by going round:
 * each turn adds the fee share of the last guess, and a few turns settle it; the last steps go a
 * cent at a time, so rounding anywhere never leaves the charity a cent short.
 */
export function feeCoverCents(donationCents: number, tipCents: number, rates: FeeRates): number {
  if (donationCents <= 0) return 0;
  let cover = 0;
  for (let turn = 0; turn < 8; turn += 1) {
    const payment = donationCents + tipCents + cover;
    const next = charityFeeShare(processorFeeCents(payment, rates), donationCents + cover, payment);
    if (next === cover) break;
    cover = next;
  }
  while (!covers(donationCents, tipCents, cover, rates)) cover += 1;
  while (cover > 0 && covers(donationCents, tipCents, cover - 1, rates)) cover -= 1;
  return cover;
}
