import * as z from 'zod/mini';
import { listEnvelope } from './api';

// What the admin money calls and the public ledger answer (issue 11; spec part 2 sections 3 and 7;
// DESIGN.md "Contract details for money, admin and offline").

export const DISBURSEMENT_STATUSES = ['PENDING', 'COMPLETE', 'CANCELED', 'FAILED'] as const;
export type DisbursementStatus = (typeof DISBURSEMENT_STATUSES)[number];

/** What became of a payment after the sale (issue 23), from the money journal. */
export const TRANSACTION_STATUSES = [
  'paid',
  'partly_refunded',
  'refunded',
  'disputed',
  'dispute_won',
  'dispute_lost',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Whether a payment's fee is the processor's, or the estimate: still asked for, or never reported. */
export const FEE_STATUSES = ['known', 'pending', 'unreported'] as const;
export type FeeStatus = (typeof FEE_STATUSES)[number];

/** GET /api/admin/transactions: one payment, newest payment first; its money as the journal sums it. */
export const adminTransactionSchema = z.object({
  id: z.int(),
  organizationName: z.nullable(z.string()),
  organizationWebsite: z.nullable(z.string()),
  ein: z.nullable(z.string()),
  projectId: z.nullable(z.int()),
  projectName: z.nullable(z.string()),
  name: z.string(),
  email: z.string(),
  /** The donation (with any fee cover: the charity's money) and the tip as charged. */
  amountCents: z.int(),
  /** Of amountCents, what the donor added to cover the card fee (issue 26). */
  feeCoverCents: z.int(),
  tipCents: z.int(),
  /** The processor's fee on the whole payment: the estimate while `feeStatus` is not "known". */
  feeCents: z.int(),
  feeStatus: z.enum(FEE_STATUSES),
  /** What was refunded of the payment (donation + tip) and not reversed; 0 when nothing was. */
  refundedCents: z.int(),
  /** What disputes hold back or took (open or lost); 0 when none. */
  disputedCents: z.int(),
  status: z.enum(TRANSACTION_STATUSES),
  createdAt: z.string(),
});
export type AdminTransaction = z.infer<typeof adminTransactionSchema>;

/** The sums of a set of the Transactions tab's rows, to the cent (server/features/donations/admin-transactions.ts). */
export const transactionTotalsSchema = z.object({
  payments: z.int(),
  donationCents: z.int(),
  /** Of donationCents, the donors' cover of card fees (issue 26). */
  feeCoverCents: z.int(),
  tipCents: z.int(),
  /** Every fee, the estimated ones included. */
  feeCents: z.int(),
  /** Payments whose fee is the estimate (in `feeCents` at the estimate). */
  feesPending: z.int(),
  refundedCents: z.int(),
  disputedCents: z.int(),
});
export type TransactionTotals = z.infer<typeof transactionTotalsSchema>;

/**
 * The page asked for, the number of all rows, the sums of that page and of all of them, and how
 * many payments' fees the processor never reported (the fee job gave up on them).
 */
export const adminTransactionsSchema = z.extend(listEnvelope(adminTransactionSchema), {
  totals: z.object({ page: transactionTotalsSchema, all: transactionTotalsSchema }),
  feesUnreported: z.int(),
});
export type AdminTransactions = z.infer<typeof adminTransactionsSchema>;

/** POST /api/admin/transactions/fee-checks: how many payments' fees are asked for again. */
export const feeChecksAnswerSchema = z.object({ asked: z.int() });

/** One charity's money (spec part 2 section 3, Disbursement summary), with the outstanding amount. */
/** A charity's money, in cents (server/features/disbursements/balances.ts computes it). */
const charityMoney = {
  donatedCents: z.int(),
  /** Of donatedCents, what donors added to cover the card fee (issue 26). */
  feeCoverCents: z.int(),
  afterFeesDonatedCents: z.int(),
  disbursedCents: z.int(),
  /** after fees − disbursed: still to be paid to the charity; below zero when it was overpaid. */
  outstandingCents: z.int(),
};

export const disbursementSummarySchema = z.object({
  ein: z.string(),
  charityName: z.string(),
  ...charityMoney,
  hasPending: z.boolean(),
  /** When the pending disbursement was started: stale after a day (PENDING_STALE_MS). */
  pendingSince: z.nullable(z.string()),
});

/** A disbursement left PENDING this long never came back from the giving site: the admin page says so. */
export const PENDING_STALE_MS = 24 * 60 * 60 * 1000;
export type DisbursementSummary = z.infer<typeof disbursementSummarySchema>;
export const disbursementSummariesSchema = z.object({ results: z.array(disbursementSummarySchema) });

export const disbursementSchema = z.object({
  id: z.int(),
  ein: z.string(),
  charityName: z.string(),
  status: z.enum(DISBURSEMENT_STATUSES),
  notes: z.nullable(z.string()),
  source: z.string(),
  amountCents: z.int(),
  /** A manual one over what was outstanding, confirmed by the admin: what was outstanding then. */
  overriddenOutstandingCents: z.nullable(z.int()),
  createdAt: z.string(),
  updatedAt: z.string(),
  finalizedAt: z.nullable(z.string()),
});
export type Disbursement = z.infer<typeof disbursementSchema>;
export const disbursementHistorySchema = listEnvelope(disbursementSchema);

export const initializeResponseSchema = z.object({
  disbursement: disbursementSchema,
  callbackSecret: z.string(),
  redirectUrl: z.string(),
});

/** PATCH /api/admin/disbursement/{id} and POST /api/admin/disbursements: the disbursement as it is now. */
export const disbursementAnswerSchema = z.object({ disbursement: disbursementSchema });

/** PATCH /api/admin/disbursement/{id}/callback: the disbursement and what happened to it. */
export const callbackAnswerSchema = z.object({ disbursement: disbursementSchema, message: z.string() });

/** GET /api/ledger: where the money goes, per charity, with no donor in it. */
export const ledgerEntrySchema = z.object({
  ein: z.string(),
  charityName: z.string(),
  ...charityMoney,
  lastDisbursedAt: z.nullable(z.string()),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
/**
 * The sums over every charity: what is still to be paid adds what charities are owed only; what
 * they were overpaid (paid, then refunded or lost in a dispute) is `clawbackCents`, apart.
 */
const ledgerTotalsSchema = z.object({ ...charityMoney, clawbackCents: z.int() });
export type LedgerTotals = z.infer<typeof ledgerTotalsSchema>;
/** Per charity, and the sums of those figures over every charity (computed on the server, like them). */
export const ledgerSchema = z.object({ results: z.array(ledgerEntrySchema), totals: ledgerTotalsSchema });

/** What a reconciliation compares: a payment's charge and fee, a refund, a failed refund, a dispute and its fee. */
export const RECONCILIATION_KINDS = ['charge', 'fee', 'refund', 'refund_failure', 'dispute', 'dispute_fee'] as const;

/**
 * GET /api/admin/reconciliation: the money journal against the processor's balance transactions
 * for a period (DESIGN.md "Contract details for wave 3", reconciliation). A movement on one side
 * only has 0 on the other.
 */
export const reconciliationSchema = z.object({
  from: z.string(),
  to: z.string(),
  provider: z.enum(['stripe', 'test']),
  matched: z.int(),
  differences: z.array(
    z.object({
      providerId: z.string(),
      kind: z.enum(RECONCILIATION_KINDS),
      oursCents: z.int(),
      theirsCents: z.int(),
      /** The site's calendar day it happened on (the earlier side's). */
      date: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
