// The money rule, in integer cents, in one place (the money rule of DEVELOPERS.md; issue 23). A
// payment's journal rows are kept equal to what these functions say its facts add up to: each new
// fact (a fee reported, a refund, a dispute …) writes the difference between the new figures and
// the sums of the rows so far. So rows written in any order, with any rounding along the way, add
// up to the figures of the facts, to the cent.

import { charityFeeShare } from '../../../shared/fee-cover';

export { charityFeeShare };

/** What a row moves for each party, signed: + is money to that party, − money from it. */
export type Parts = { charityCents: number; platformCents: number; processorCents: number };

export const NO_PARTS: Parts = { charityCents: 0, platformCents: 0, processorCents: 0 };

export function addParts(a: Parts, b: Parts): Parts {
  return {
    charityCents: a.charityCents + b.charityCents,
    platformCents: a.platformCents + b.platformCents,
    processorCents: a.processorCents + b.processorCents,
  };
}

export function subtractParts(a: Parts, b: Parts): Parts {
  return {
    charityCents: a.charityCents - b.charityCents,
    platformCents: a.platformCents - b.platformCents,
    processorCents: a.processorCents - b.processorCents,
  };
}

export function isZero(parts: Parts) {
  return parts.charityCents === 0 && parts.platformCents === 0 && parts.processorCents === 0;
}

/** A payment as it was made: the charity's donation (with the fee it covers) and the platform's tip. */
export type PaymentAmounts = { donationCents: number; tipCents: number; feeCoverCents: number };

/** What happened to a payment after the sale, as its journal rows (or a new event) tell it. */
export type PaymentFacts = {
  /** The processor took the money (the charge is recorded). */
  charged: boolean;
  /** The processor's fee on the payment: as reported, or the estimate until it is. */
  feeCents: number;
  /** What went back to the payer: refunds not reversed, and disputes open or lost. */
  takenBackCents: number;
  /** The processor's fees for disputes, which the platform pays. */
  disputeFeeCents: number;
};

export const NOTHING_YET: PaymentFacts = { charged: false, feeCents: 0, takenBackCents: 0, disputeFeeCents: 0 };

/** The whole payment: donation, fee cover and tip. */
export function paymentCents(amounts: PaymentAmounts) {
  return amounts.donationCents + amounts.feeCoverCents + amounts.tipCents;
}

/** The charity's money in the payment: the donation and the fee cover the donor added for it. */
function charityCentsOf(amounts: PaymentAmounts) {
  return amounts.donationCents + amounts.feeCoverCents;
}

/**
 * The charity's part of money going back to the payer (a refund, a dispute): charity and platform
 * give back in proportion to their parts of the payment, the charity's rounded to the cent and the
 * platform taking the rest. When all of it goes back, the charity gives back exactly its part;
 * beyond the payment (a dispute on top of a refund) the platform carries the loss.
 */
export function charityShareOfTakenBack(takenBackCents: number, amounts: PaymentAmounts): number {
  const payment = paymentCents(amounts);
  const charity = charityCentsOf(amounts);
  if (payment <= 0 || charity <= 0 || takenBackCents <= 0) return 0;
  if (takenBackCents >= payment) return charity;
  return Math.min(charity, Math.round((takenBackCents * charity) / payment));
}

/**
 * What a payment's rows must add up to, given its facts: `money`, the payment itself and what went
 * back of it (with dispute fees, which the platform pays the processor), and `fee`, the
 * processor's fee shared between charity and platform. Each part is signed as in Parts.
 */
export function paymentFigures(amounts: PaymentAmounts, facts: PaymentFacts): { money: Parts; fee: Parts } {
  const charityBack = charityShareOfTakenBack(facts.takenBackCents, amounts);
  const platformBack = facts.takenBackCents - charityBack;
  const charityIn = facts.charged ? charityCentsOf(amounts) : 0;
  const platformIn = facts.charged ? amounts.tipCents : 0;
  const kept = charityIn - charityBack;
  const charityFee = facts.charged ? charityFeeShare(facts.feeCents, kept, paymentCents(amounts)) : 0;
  return {
    money: {
      charityCents: charityIn - charityBack,
      platformCents: platformIn - platformBack - facts.disputeFeeCents,
      processorCents: facts.disputeFeeCents,
    },
    // 0 − x rather than −x: a share of nothing is 0, never −0.
    fee: {
      charityCents: 0 - charityFee,
      platformCents: 0 - (facts.feeCents - charityFee),
      processorCents: facts.feeCents,
    },
  };
}
