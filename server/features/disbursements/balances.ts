import type { CharitySums } from '../journal/service';
import type { DisbursementTotals } from './queries';

// A charity's money, in one place (issues 11 and 23): from the money journal's sums, what each
// charity was given, what is left after its share of the processor's fees, what has been paid
// out, and what is still owed. The admin pages, the disbursement checks and the public ledger
// all read these figures, so they cannot disagree.

export type CharityBalance = {
  ein: string;
  charityName: string;
  /** What its donations gave, less what went back of them (refunds, disputes open or lost). */
  donatedCents: number;
  /** Of donated, what donors added to cover the card fee (issue 26). */
  feeCoverCents: number;
  /** donated − the charity's share of the processor's fees (estimated until reported). */
  afterFeesDonatedCents: number;
  /** COMPLETE disbursements. */
  disbursedCents: number;
  /**
   * after fees − disbursed. Below zero when money was paid out and then went back (a refund, a
   * dispute lost): the charity was overpaid by that much (a clawback).
   */
  outstandingCents: number;
  hasPending: boolean;
  /** When the PENDING disbursement was started (stale after a day). */
  pendingSince: Date | null;
  lastDisbursedAt: Date | null;
};

export function charityBalance(
  sums: CharitySums | undefined,
  paid: DisbursementTotals | undefined,
  ein: string,
  donationName?: string,
): CharityBalance {
  const donatedCents = sums?.donatedCents ?? 0;
  const afterFeesDonatedCents = donatedCents - (sums?.charityFeeCents ?? 0);
  const disbursedCents = sums?.disbursedCents ?? 0;
  return {
    ein,
    charityName: donationName ?? paid?.charityName ?? ein,
    donatedCents,
    feeCoverCents: sums?.feeCoverCents ?? 0,
    afterFeesDonatedCents,
    disbursedCents,
    outstandingCents: afterFeesDonatedCents - disbursedCents,
    hasPending: (paid?.pendingCount ?? 0) > 0,
    pendingSince: paid?.pendingSince ?? null,
    lastDisbursedAt: paid?.lastDisbursedAt ?? null,
  };
}

/** Every charity that was given or paid anything; what is still owed first, then the largest debt. */
export function charityBalances(
  sums: CharitySums[],
  paid: DisbursementTotals[],
  names: Map<string, string>,
): CharityBalance[] {
  const sumsByEin = new Map(sums.map((charity) => [charity.ein, charity]));
  const paidByEin = new Map(paid.map((totals) => [totals.ein, totals]));
  const eins = new Set([...sumsByEin.keys(), ...paidByEin.keys()]);
  return [...eins]
    .map((ein) => charityBalance(sumsByEin.get(ein), paidByEin.get(ein), ein, names.get(ein)))
    .sort(
      (a, b) =>
        Number(b.outstandingCents > 0) - Number(a.outstandingCents > 0) ||
        b.outstandingCents - a.outstandingCents ||
        a.charityName.localeCompare(b.charityName),
    );
}

/**
 * The sums over every charity: what the public ledger's headline figures say. What is still to be
 * paid adds what charities are owed, never a charity's overpayment against another's debt; what
 * charities were overpaid (paid, then refunded or lost in a dispute) is its own figure.
 */
export function balanceTotals(balances: CharityBalance[]) {
  const totals = {
    donatedCents: 0,
    feeCoverCents: 0,
    afterFeesDonatedCents: 0,
    disbursedCents: 0,
    outstandingCents: 0,
    clawbackCents: 0,
  };
  for (const balance of balances) {
    totals.donatedCents += balance.donatedCents;
    totals.feeCoverCents += balance.feeCoverCents;
    totals.afterFeesDonatedCents += balance.afterFeesDonatedCents;
    totals.disbursedCents += balance.disbursedCents;
    if (balance.outstandingCents > 0) totals.outstandingCents += balance.outstandingCents;
    else totals.clawbackCents -= balance.outstandingCents;
  }
  return totals;
}
