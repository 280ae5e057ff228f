import type { Db } from '../../db/client';
import type { JournalKind } from '../../db/schema';
import { DEFAULT_FEE_RATES, type FeeRates, processorFeeCents } from '../../../shared/fee-cover';
import {
  addParts,
  isZero,
  NO_PARTS,
  NOTHING_YET,
  type Parts,
  type PaymentAmounts,
  type PaymentFacts,
  paymentCents,
  paymentFigures,
  subtractParts,
} from './money';
import * as queries from './queries';
import type { JournalRow } from './queries';

// The money journal (issue 23; DESIGN.md "Contract details for wave 3", money journal): every
// movement of money is one append-only row, and every figure the product shows is a sum over
// them. Donations and disbursements record here what the processor and the admins report; this
// feature knows nothing of either, only of payments and charities.
//
// How a payment's rows are written: each event (a charge, a fee reported, a refund, a dispute …)
// changes the payment's facts; money.ts says what rows with those facts must add up to; the new
// row is the difference from what the rows so far add up to. Each is keyed by the provider's
// object id, so a redelivered event finds its row and adds nothing, and events in any order end
// in the same sums. The writers read a payment's rows and then add to them, so they run inside
// the caller's transaction (an IMMEDIATE one where another process may write): a payment's rows
// and the caller's rows commit together. They take the database itself, not a transaction's
// handle: their statements are prepared once for it and run on its connection, so in the
// transaction under way (fulfilment is the hottest money path; issue 23's benchmark).

/** What the journal needs to know of a payment: who it is for and how it was made up. */
export type JournalPayment = PaymentAmounts & {
  donationId: number;
  paymentIntentId: string;
  fundraiserId: number | null;
  charityEin: string | null;
};

/** A fee as the processor reports it: its balance transaction (the row's key) and the fee. */
export type ReportedFee = { providerId: string; feeCents: number };

const MONEY_KINDS: readonly JournalKind[] = [
  'charge',
  'fee_cover',
  'refund',
  'refund_reversed',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
];
const TAKEN_BACK_KINDS: readonly JournalKind[] = [
  'refund',
  'refund_reversed',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
];

const partsOf = (row: JournalRow): Parts => ({
  charityCents: row.charityCents,
  platformCents: row.platformCents,
  processorCents: row.processorCents,
});
const totalOf = (row: JournalRow) => row.charityCents + row.platformCents + row.processorCents;

/** What a payment's rows say happened to it. */
function factsOf(rows: JournalRow[]): PaymentFacts {
  const facts = { ...NOTHING_YET };
  for (const row of rows) {
    if (row.kind === 'charge') facts.charged = true;
    if (row.kind === 'fee') facts.feeCents += row.processorCents;
    if (TAKEN_BACK_KINDS.includes(row.kind)) facts.takenBackCents -= totalOf(row);
    if (MONEY_KINDS.includes(row.kind)) facts.disputeFeeCents += row.processorCents;
  }
  return facts;
}

/** What a payment's rows add up to: the money, and the fee. */
function sumsOf(rows: JournalRow[]) {
  let money = NO_PARTS;
  let fee = NO_PARTS;
  for (const row of rows) {
    if (row.kind === 'fee') fee = addParts(fee, partsOf(row));
    else if (MONEY_KINDS.includes(row.kind)) money = addParts(money, partsOf(row));
  }
  return { money, fee };
}

function isFeePending(rows: JournalRow[]) {
  const fees = rows.filter((row) => row.kind === 'fee');
  return fees.some((row) => row.estimated) && !fees.some((row) => !row.estimated);
}

type Change = {
  kind: Exclude<JournalKind, 'fee' | 'disbursement' | 'charge' | 'fee_cover'>;
  providerId: string;
  facts: (facts: PaymentFacts) => PaymentFacts;
};

/**
 * Writes one event of a payment: its row (the change in money) and, when the fee's split moved
 * with it (money went back, so the charity's share of the fee shrank), a fee row beside it.
 */
function writeChange(db: Db, payment: JournalPayment, rows: JournalRow[], change: Change, at: Date) {
  const next = paymentFigures(payment, change.facts(factsOf(rows)));
  const sums = sumsOf(rows);
  insert(db, payment, change.kind, change.providerId, subtractParts(next.money, sums.money), at);
  const feeMoved = subtractParts(next.fee, sums.fee);
  if (!isZero(feeMoved)) {
    insert(db, payment, 'fee', `${change.providerId}:fee`, feeMoved, at, isFeePending(rows));
  }
  rows.push(...queries.rowsOfDonation(db, payment.donationId).slice(rows.length));
}

function insert(
  db: Db,
  payment: JournalPayment,
  kind: JournalKind,
  providerId: string,
  parts: Parts,
  at: Date,
  estimated = false,
) {
  return queries.insertRow(db, {
    providerId,
    kind,
    donationId: payment.donationId,
    fundraiserId: payment.fundraiserId,
    charityEin: payment.charityEin,
    ...parts,
    estimated,
    occurredAt: at,
  });
}

/**
 * The processor took the payment: the charge (and the fee cover, its own row), and its fee, as
 * reported, or else the estimate, flagged, until the processor reports it (recordFee). Answers
 * the payment's facts now (money taken back before the charge was heard of shows there), or null
 * when the charge was recorded already.
 */
export function recordCharge(
  db: Db,
  payment: JournalPayment,
  fee: ReportedFee | null,
  at: Date,
  estimateAt: FeeRates = DEFAULT_FEE_RATES,
): PaymentFacts | null {
  // The charge is this payment's own row: one read tells whether it is there and what else is.
  const rows = queries.rowsOfDonation(db, payment.donationId);
  if (rows.some((row) => row.providerId === payment.paymentIntentId)) return null;
  const facts = factsOf(rows);
  // A fee the processor reported already (its row is there) stands; else this one, or the estimate.
  const reported = rows.some((row) => row.kind === 'fee' && !row.estimated);
  // Not reported yet: estimated at the rates the site's fee cover is worked out at (FEE_PERCENT).
  const feeCents = reported ? facts.feeCents : (fee?.feeCents ?? processorFeeCents(paymentCents(payment), estimateAt));
  const next = paymentFigures(payment, { ...facts, charged: true, feeCents });
  const sums = sumsOf(rows);
  const money = subtractParts(next.money, sums.money);
  const cover: Parts = { ...NO_PARTS, charityCents: payment.feeCoverCents };
  insert(db, payment, 'charge', payment.paymentIntentId, subtractParts(money, cover), at);
  if (payment.feeCoverCents > 0) insert(db, payment, 'fee_cover', `${payment.paymentIntentId}:fee_cover`, cover, at);
  const feeParts = subtractParts(next.fee, sums.fee);
  if (reported) {
    // The charge moves the reported fee's share to the charity: a row beside the charge.
    if (!isZero(feeParts)) insert(db, payment, 'fee', `${payment.paymentIntentId}:fee`, feeParts, at);
  } else if (fee) insert(db, payment, 'fee', fee.providerId, feeParts, at);
  else insert(db, payment, 'fee', `${payment.paymentIntentId}:fee_estimate`, feeParts, at, true);
  return { ...facts, charged: true, feeCents };
}

/** The processor reported the fee of a payment counted at the estimate: the fee is replaced by it. */
export function recordFee(db: Db, payment: JournalPayment, fee: ReportedFee, at: Date): boolean {
  if (queries.hasRow(db, fee.providerId)) return false;
  const rows = queries.rowsOfDonation(db, payment.donationId);
  const next = paymentFigures(payment, { ...factsOf(rows), feeCents: fee.feeCents });
  insert(db, payment, 'fee', fee.providerId, subtractParts(next.fee, sumsOf(rows).fee), at);
  return true;
}

/**
 * A refund of the payment, by the processor's refund id. A refund that failed (or was canceled)
 * is reversed; one first heard of as failed is recorded with its reversal, so a late report of it
 * as pending finds it and adds nothing. True when a row was added.
 */
export function recordRefund(
  db: Db,
  payment: JournalPayment,
  refund: { id: string; amountCents: number; failed: boolean },
  at: Date,
): boolean {
  const rows = queries.rowsOfDonation(db, payment.donationId);
  const known = (providerId: string) => rows.some((row) => row.providerId === providerId);
  let added = false;
  if (!known(refund.id)) {
    writeChange(db, payment, rows, { kind: 'refund', providerId: refund.id, facts: takeBack(refund.amountCents) }, at);
    added = true;
  }
  const reversal = `${refund.id}:reversed`;
  if (refund.failed && !known(reversal)) {
    const amount = -totalOf(rows.find((row) => row.providerId === refund.id)!);
    writeChange(db, payment, rows, { kind: 'refund_reversed', providerId: reversal, facts: takeBack(-amount) }, at);
    added = true;
  }
  return added;
}

const takeBack =
  (cents: number) =>
  (facts: PaymentFacts): PaymentFacts => ({ ...facts, takenBackCents: facts.takenBackCents + cents });

export type DisputeReport = {
  id: string;
  amountCents: number;
  /** The processor's dispute fees so far (a won dispute's may have come back): the platform's. */
  feeCents: number;
  outcome: 'open' | 'won' | 'lost';
};

/**
 * A dispute (a chargeback) of the payment: opened, the amount leaves the charity's balance at once;
 * won, it comes back; lost, it stays out (the caller takes the album away once the whole payment
 * is gone). One heard of first when it closed is opened and closed in turn. True when a row was added.
 */
export function recordDispute(db: Db, payment: JournalPayment, dispute: DisputeReport, at: Date): boolean {
  const rows = queries.rowsOfDonation(db, payment.donationId);
  const known = (providerId: string) => rows.some((row) => row.providerId === providerId);
  const ofThisDispute = () =>
    rows.filter(
      (row) => row.kind !== 'fee' && (row.providerId === dispute.id || row.providerId.startsWith(`${dispute.id}:`)),
    );
  const withFee = (facts: PaymentFacts): PaymentFacts => {
    const feeSoFar = ofThisDispute().reduce((sum, row) => sum + row.processorCents, 0);
    return { ...facts, disputeFeeCents: facts.disputeFeeCents - feeSoFar + dispute.feeCents };
  };
  let added = false;
  if (!known(dispute.id)) {
    const facts = (current: PaymentFacts) => withFee(takeBack(dispute.amountCents)(current));
    writeChange(db, payment, rows, { kind: 'dispute_opened', providerId: dispute.id, facts }, at);
    added = true;
  }
  const closed = known(`${dispute.id}:won`) || known(`${dispute.id}:lost`);
  if (dispute.outcome !== 'open' && !closed) {
    const opened = -totalOf(rows.find((row) => row.providerId === dispute.id)!);
    const won = dispute.outcome === 'won';
    const facts = (current: PaymentFacts) => withFee(won ? takeBack(-opened)(current) : current);
    const kind = won ? 'dispute_won' : 'dispute_lost';
    writeChange(db, payment, rows, { kind, providerId: `${dispute.id}:${dispute.outcome}`, facts }, at);
    added = true;
  }
  return added;
}

/** A disbursement completed: the money left for the charity. False when it was recorded already. */
export function recordDisbursement(
  db: Db,
  disbursement: { id: number; ein: string; amountCents: number },
  at: Date,
): boolean {
  return queries.insertRow(db, {
    providerId: `disbursement:${disbursement.id}`,
    kind: 'disbursement',
    disbursementId: disbursement.id,
    charityEin: disbursement.ein,
    charityCents: -disbursement.amountCents,
    occurredAt: at,
  });
}

/** Where a payment stands after everything that happened to it. */
export type PaymentPosition = {
  charged: boolean;
  /** The processor's fee: as reported, or the estimate while `feePending`. */
  feeCents: number;
  feePending: boolean;
  /** Refunded and not reversed. */
  refundedCents: number;
  /** Disputes still open, and disputes lost. */
  disputedCents: number;
  lostCents: number;
  /** What the charity keeps of the donation (with any fee cover), before its share of the fee. */
  donatedCents: number;
  /** The whole payment went back, by refunds and lost disputes: the album goes with it. */
  fullyTakenBack: boolean;
};

export function paymentPosition(db: Db, payment: JournalPayment): PaymentPosition {
  const rows = queries.rowsOfDonation(db, payment.donationId);
  const facts = factsOf(rows);
  let refundedCents = 0;
  let disputedCents = 0;
  let lostCents = 0;
  for (const row of rows) {
    if (row.kind === 'refund' || row.kind === 'refund_reversed') refundedCents -= totalOf(row);
    if (row.kind === 'dispute_opened') {
      const amount = -totalOf(row);
      const closedAs = rows.find((other) => other.providerId === `${row.providerId}:lost`)
        ? 'lost'
        : rows.find((other) => other.providerId === `${row.providerId}:won`)
          ? 'won'
          : 'open';
      if (closedAs === 'lost') lostCents += amount;
      if (closedAs === 'open') disputedCents += amount;
    }
  }
  return {
    charged: facts.charged,
    feeCents: facts.feeCents,
    feePending: isFeePending(rows),
    refundedCents,
    disputedCents,
    lostCents,
    donatedCents: sumsOf(rows).money.charityCents,
    fullyTakenBack: facts.charged && refundedCents + lostCents >= paymentCents(payment),
  };
}

/**
 * What the payment gave as its charge recorded it: the charity's donation (with any fee cover) and
 * the platform's tip. A receipt's amounts and tax-deductible part start here.
 */
export function chargedMoney(db: Db, donationId: number): { donationCents: number; tipCents: number } {
  const charged = queries
    .rowsOfDonation(db, donationId)
    .filter((row) => row.kind === 'charge' || row.kind === 'fee_cover');
  return {
    donationCents: charged.reduce((sum, row) => sum + row.charityCents, 0),
    tipCents: charged.reduce((sum, row) => sum + row.platformCents, 0),
  };
}

export const raisedByFundraisers = queries.raisedByFundraisers;
export const sumsOfPayments = queries.sumsOfPayments;
export const sumsOfAllPayments = queries.sumsOfAllPayments;
export const sumsByCharity = queries.sumsByCharity;
export const moneyByDay = queries.moneyByDay;
export const moneySpan = queries.moneySpan;
export const latestJournalId = queries.latestJournalId;
export const moneyRowsAfter = queries.moneyRowsAfter;
export const topFundraisersBetween = queries.topFundraisersBetween;
export type { CharitySums, PaymentSums } from './queries';
