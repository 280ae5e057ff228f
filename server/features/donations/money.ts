// The donations feature's arithmetic, in integer cents, in one place (the money rule of
// DEVELOPERS.md). The donate page shows the same rules from shared/money.ts; this decides. The
// per-charity sums (server/features/disbursements/balances.ts) add up the figures made here.

/**
 * The charity's share of the processor's fee (DESIGN.md section 4): in proportion to the
 * donation's part of the payment, donation / (donation + tip), rounded to the cent. The platform
 * carries the rest, so the two shares always add up to the fee.
 */
export function charityFeeShare(feeCents: number, donationCents: number, tipCents: number): number {
  return charityFeeOfKept(feeCents, donationCents, donationCents + tipCents);
}

/**
 * The donation's part of a refund: a refund of part of a payment gives back donation and tip in
 * proportion to their parts of the payment, as the fee is shared, the donation's part rounded to
 * the cent and the tip taking the rest. A full refund gives back the whole donation exactly.
 */
export function charityRefundShare(refundedCents: number, donationCents: number, tipCents: number): number {
  const payment = donationCents + tipCents;
  if (payment <= 0 || donationCents <= 0 || refundedCents <= 0) return 0;
  if (refundedCents >= payment) return donationCents;
  return Math.min(donationCents, Math.round((refundedCents * donationCents) / payment));
}

/** The fee on `keptCents` of the donation, at the payment's rate (fee / payment), to the cent. */
function charityFeeOfKept(feeCents: number, keptCents: number, paymentCents: number): number {
  if (paymentCents <= 0 || keptCents <= 0) return 0;
  return Math.round((feeCents * keptCents) / paymentCents);
}

export type CharityFigures = {
  /** The donation's part of what was refunded. */
  charityRefundedCents: number;
  /** The charity's share of the fee; null while the fee is not known. */
  charityFeeCents: number | null;
};

/**
 * What one payment gives its charity, from what the processor reports (the fee, and what it has
 * refunded so far, a cumulative figure). Stripe keeps its fee when it refunds, so someone pays
 * the fee of refunded money: the platform, as it does for a full refund. The charity carries the
 * fee of the donation it keeps, at the payment's rate: with no refund that is its proportional
 * share of the whole fee; after a full refund it is nothing.
 */
export function charityFigures(payment: {
  amountCents: number;
  tipCents: number;
  feeCents: number | null;
  refundedCents: number;
}): CharityFigures {
  const charityRefundedCents = charityRefundShare(payment.refundedCents, payment.amountCents, payment.tipCents);
  const kept = payment.amountCents - charityRefundedCents;
  return {
    charityRefundedCents,
    charityFeeCents:
      payment.feeCents === null
        ? null
        : charityFeeOfKept(payment.feeCents, kept, payment.amountCents + payment.tipCents),
  };
}
