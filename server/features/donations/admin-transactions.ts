import { PAGE_SIZE } from '../../../shared/constants';
import { plainDollars } from '../../../shared/money';
import { siteCalendarDates } from '../../../shared/site-dates';
import type {
  AdminTransaction,
  AdminTransactions,
  FeeStatus,
  TransactionStatus,
  TransactionTotals,
} from '../../../shared/answers/admin-money';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { type CsvValue, csvStream } from '../../infra/csv';
import * as journal from '../journal/service';
import type { PaymentSums } from '../journal/service';
import * as queries from './queries';
import type { AdminTransactionRow } from './queries';

// The admins' Transactions tab and its CSV (spec part 2 sections 2 and 7; DESIGN.md "admin
// transactions"; issue 23): every payment made, refunded and disputed ones too, newest first, its
// money summed from the money journal. The route checks the caller is an admin.

type Sums = PaymentSums | undefined;

/** What became of the payment, in the order that matters most to an admin matching it with Stripe. */
function statusOf(row: AdminTransactionRow, sums: Sums): TransactionStatus {
  if (!sums) return 'paid';
  if (sums.disputesLost > 0) return 'dispute_lost';
  if (row.status === 'refunded') return 'refunded';
  if (sums.disputesOpen > 0) return 'disputed';
  if (sums.refundedCents > 0) return 'partly_refunded';
  if (sums.disputesWon > 0) return 'dispute_won';
  return 'paid';
}

function feeStatusOf(row: AdminTransactionRow, sums: Sums): FeeStatus {
  if (!sums || sums.feeReported || !sums.feeEstimated) return 'known';
  return row.feeUnreportedAt ? 'unreported' : 'pending';
}

function present(row: AdminTransactionRow, sums: Sums): AdminTransaction {
  return {
    id: row.id,
    organizationName: row.organizationName,
    organizationWebsite: row.organizationWebsite,
    ein: row.ein,
    projectId: row.projectId,
    projectName: row.projectName,
    name: row.name,
    email: row.email,
    amountCents: sums?.chargedDonationCents ?? 0,
    feeCoverCents: sums?.feeCoverCents ?? 0,
    tipCents: sums?.chargedTipCents ?? 0,
    feeCents: sums?.feeCents ?? 0,
    feeStatus: feeStatusOf(row, sums),
    refundedCents: sums?.refundedCents ?? 0,
    disputedCents: sums?.disputedCents ?? 0,
    status: statusOf(row, sums),
    // Paid rows always have the moment they succeeded; the fallback keeps the type honest.
    createdAt: (row.succeededAt ?? new Date(0)).toISOString(),
  };
}

/** Rows with their journal sums, as shown. */
function presentRows(db: Db, rows: AdminTransactionRow[]): AdminTransaction[] {
  const sums = journal.sumsOfPayments(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => present(row, sums.get(row.id)));
}

/** The sums of shown rows: exactly what the rows say, added up. */
function totalsOf(rows: AdminTransaction[]): TransactionTotals {
  const totals = {
    payments: rows.length,
    donationCents: 0,
    feeCoverCents: 0,
    tipCents: 0,
    feeCents: 0,
    feesPending: 0,
    refundedCents: 0,
    disputedCents: 0,
  };
  for (const row of rows) {
    totals.donationCents += row.amountCents;
    totals.feeCoverCents += row.feeCoverCents;
    totals.tipCents += row.tipCents;
    totals.feeCents += row.feeCents;
    if (row.feeStatus !== 'known') totals.feesPending += 1;
    totals.refundedCents += row.refundedCents;
    totals.disputedCents += row.disputedCents;
  }
  return totals;
}

/**
 * A page of the list, how many rows it has in all, the sums of that page and of all of them (the
 * figures the tab shows under the rows), and how many fees were never reported, read in one
 * transaction so they agree.
 */
export function listTransactions(deps: Deps, page: number, pageSize = PAGE_SIZE) {
  return deps.db.transaction((tx) => {
    const results = presentRows(tx, queries.listAdminTransactions(tx, pageSize, page * pageSize));
    return {
      results,
      totalCount: queries.countAdminTransactions(tx),
      totals: { page: totalsOf(results), all: journal.sumsOfAllPayments(tx) },
      feesUnreported: queries.countUnreportedFees(tx),
    } satisfies AdminTransactions;
  });
}

export const TRANSACTIONS_CSV_HEADER = [
  'createdAt',
  'id',
  'projectId',
  'projectName',
  'organizationName',
  'ein',
  'organizationWebsite',
  'name',
  'email',
  'amountCents',
  'tipCents',
  'feeCents',
  'amount',
  'tip',
  'refundedCents',
  // Added later, at the end so columns read by position stay where they were.
  'fee_status',
  'date',
  'status',
  'disputedCents',
  'feeCoverCents',
] as const;

/** Rows read from the database per page of the CSV: small enough to stay flat, big enough to be quick. */
const CSV_PAGE_ROWS = 1000;

function* transactionPages(deps: Deps): Generator<CsvValue[][]> {
  const dateOf = siteCalendarDates(deps.config.timeZone);
  let after: { succeededAt: Date; id: number } | null = null;
  for (;;) {
    const rows = queries.adminTransactionsAfter(deps.db, after, CSV_PAGE_ROWS);
    if (rows.length === 0) return;
    yield presentRows(deps.db, rows).map((transaction) => {
      return [
        transaction.createdAt,
        transaction.id,
        transaction.projectId,
        transaction.projectName,
        transaction.organizationName,
        transaction.ein,
        transaction.organizationWebsite,
        transaction.name,
        transaction.email,
        transaction.amountCents,
        transaction.tipCents,
        transaction.feeCents,
        plainDollars(transaction.amountCents),
        plainDollars(transaction.tipCents),
        transaction.refundedCents,
        transaction.feeStatus,
        dateOf(transaction.createdAt),
        transaction.status,
        transaction.disputedCents,
        transaction.feeCoverCents,
      ];
    });
    const last = rows[rows.length - 1]!;
    after = { succeededAt: last.succeededAt ?? new Date(0), id: last.id };
  }
}

/** The whole list as a streamed CSV body. */
export function transactionsCsv(deps: Deps) {
  return csvStream(TRANSACTIONS_CSV_HEADER, transactionPages(deps));
}
