import * as z from 'zod/mini';
import { listEnvelope } from './api';

// What the admin money calls and the public ledger answer (issue 11; spec part 2 sections 3 and 7;
// DESIGN.md "Contract details for money, admin and offline").

export const DISBURSEMENT_STATUSES = ['PENDING', 'COMPLETE', 'CANCELED', 'FAILED'] as const;
export type DisbursementStatus = (typeof DISBURSEMENT_STATUSES)[number];

/** GET /api/admin/transactions: one succeeded donation, newest payment first. */
export const adminTransactionSchema = z.object({
  id: z.int(),
  organizationName: z.nullable(z.string()),
  organizationWebsite: z.nullable(z.string()),
  ein: z.nullable(z.string()),
  projectId: z.nullable(z.int()),
  projectName: z.nullable(z.string()),
  name: z.string(),
  email: z.string(),
  amountCents: z.int(),
  tipCents: z.int(),
  /** The processor's fee on the whole payment; null while it is not known yet ("fee pending"). */
  feeCents: z.nullable(z.int()),
  /** What was refunded of the payment (donation + tip) so far; 0 when nothing was. */
  refundedCents: z.int(),
  createdAt: z.string(),
});
export type AdminTransaction = z.infer<typeof adminTransactionSchema>;

/** The sums of a set of the Transactions tab's rows, to the cent (server/features/donations/queries.ts). */
export const transactionTotalsSchema = z.object({
  payments: z.int(),
  donationCents: z.int(),
  tipCents: z.int(),
  /** The fees known so far. */
  feeCents: z.int(),
  /** Payments whose fee is not known yet: not in `feeCents`. */
  feesPending: z.int(),
  refundedCents: z.int(),
});
export type TransactionTotals = z.infer<typeof transactionTotalsSchema>;

/** The page asked for, the number of all rows, and the sums of that page and of all of them. */
export const adminTransactionsSchema = z.extend(listEnvelope(adminTransactionSchema), {
  totals: z.object({ page: transactionTotalsSchema, all: transactionTotalsSchema }),
});
export type AdminTransactions = z.infer<typeof adminTransactionsSchema>;

/** One charity's money (spec part 2 section 3, Disbursement summary), with the outstanding amount. */
/** A charity's money, in cents (server/features/disbursements/balances.ts computes it). */
const charityMoney = {
  donatedCents: z.int(),
  afterFeesDonatedCents: z.int(),
  disbursedCents: z.int(),
  /** after fees − disbursed: still to be paid to the charity. */
  outstandingCents: z.int(),
};

export const disbursementSummarySchema = z.object({
  ein: z.string(),
  charityName: z.string(),
  ...charityMoney,
  hasPending: z.boolean(),
});
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
const ledgerTotalsSchema = z.object(charityMoney);
export type LedgerTotals = z.infer<typeof ledgerTotalsSchema>;
/** Per charity, and the sums of those figures over every charity (computed on the server, like them). */
export const ledgerSchema = z.object({ results: z.array(ledgerEntrySchema), totals: ledgerTotalsSchema });
