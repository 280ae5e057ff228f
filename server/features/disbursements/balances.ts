import type { DisbursementTotals, DonationTotals } from './queries';

// The money rule for charities, in one place (issue 11): from the donation and disbursement sums,
// what each charity was given, what is left after its share of the processor's fees, what has been
// paid out, and what is still owed. The admin pages, the initialize check and the public ledger
// all read these figures, so they cannot disagree.

export type CharityBalance = {
  ein: string;
  charityName: string;
  /** Succeeded donations less the charity's part of any refund of them (tips are the platform's). */
  donatedCents: number;
  /** donated − the charity's share of the processor's fees. */
  afterFeesDonatedCents: number;
  /** COMPLETE disbursements. */
  disbursedCents: number;
  /** after fees − disbursed; below zero only when money was paid before a refund took some back. */
  outstandingCents: number;
  hasPending: boolean;
  lastDisbursedAt: Date | null;
};

export function charityBalance(donated: DonationTotals | undefined, paid: DisbursementTotals | undefined, ein: string) {
  // A partial refund gives back donation and tip in proportion (donations/money.ts): the
  // donation's part leaves the charity's money here, and its fee share is already that of the
  // part it kept. A full refund leaves the donation out altogether.
  const donatedCents = (donated?.donatedCents ?? 0) - (donated?.refundedCents ?? 0);
  const afterFeesDonatedCents = donatedCents - (donated?.charityFeeCents ?? 0);
  const disbursedCents = paid?.completedCents ?? 0;
  return {
    ein,
    charityName: donated?.charityName ?? paid?.charityName ?? ein,
    donatedCents,
    afterFeesDonatedCents,
    disbursedCents,
    outstandingCents: afterFeesDonatedCents - disbursedCents,
    hasPending: (paid?.pendingCount ?? 0) > 0,
    lastDisbursedAt: paid?.lastDisbursedAt ?? null,
  } satisfies CharityBalance;
}

/** Every charity that was given or paid anything; what is still owed first, then the largest debt. */
export function charityBalances(donated: DonationTotals[], paid: DisbursementTotals[]): CharityBalance[] {
  const donatedByEin = new Map(donated.map((totals) => [totals.ein, totals]));
  const paidByEin = new Map(paid.map((totals) => [totals.ein, totals]));
  const eins = new Set([...donatedByEin.keys(), ...paidByEin.keys()]);
  return [...eins]
    .map((ein) => charityBalance(donatedByEin.get(ein), paidByEin.get(ein), ein))
    .sort(
      (a, b) =>
        Number(b.outstandingCents > 0) - Number(a.outstandingCents > 0) ||
        b.outstandingCents - a.outstandingCents ||
        a.charityName.localeCompare(b.charityName),
    );
}

/** The sums over every charity: what the public ledger's headline figures say. */
export function balanceTotals(balances: CharityBalance[]) {
  const totals = { donatedCents: 0, afterFeesDonatedCents: 0, disbursedCents: 0, outstandingCents: 0 };
  for (const balance of balances) {
    totals.donatedCents += balance.donatedCents;
    totals.afterFeesDonatedCents += balance.afterFeesDonatedCents;
    totals.disbursedCents += balance.disbursedCents;
    totals.outstandingCents += balance.outstandingCents;
  }
  return totals;
}
