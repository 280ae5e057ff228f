import { PAGE_SIZE } from '../../../shared/constants';
import { plainDollars } from '../../../shared/money';
import { siteCalendarDates } from '../../../shared/site-dates';
import type { AdminTransaction, AdminTransactions } from '../../../shared/answers/admin-money';
import type { Deps } from '../../deps';
import { type CsvValue, csvStream } from '../../infra/csv';
import * as queries from './queries';
import type { AdminTransactionRow } from './queries';

// The admins' Transactions tab and its CSV (spec part 2 sections 2 and 7; DESIGN.md "admin
// transactions"): every succeeded payment, newest first. The route checks the caller is an admin.

function present(row: AdminTransactionRow): AdminTransaction {
  return {
    id: row.id,
    organizationName: row.organizationName,
    organizationWebsite: row.organizationWebsite,
    ein: row.ein,
    projectId: row.projectId,
    projectName: row.projectName,
    name: row.name,
    email: row.email,
    amountCents: row.amountCents,
    tipCents: row.tipCents,
    // Null until Stripe has told the fee (the donations' fee job records it): "fee pending".
    feeCents: row.feeCents,
    refundedCents: row.refundedCents,
    // Succeeded rows always have the moment they succeeded; the fallback keeps the type honest.
    createdAt: (row.succeededAt ?? new Date(0)).toISOString(),
  };
}

/**
 * A page of the list, how many rows it has in all, and the sums of that page and of all of them
 * (the figures the tab shows under the rows), read in one transaction so they agree.
 */
export function listTransactions(deps: Deps, page: number, pageSize = PAGE_SIZE) {
  const window = { limit: pageSize, offset: page * pageSize };
  return deps.db.transaction((tx) => {
    const all = queries.sumAdminTransactions(tx);
    return {
      results: queries.listAdminTransactions(tx, window.limit, window.offset).map(present),
      totalCount: all.payments,
      totals: { page: queries.sumAdminTransactions(tx, window), all },
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
] as const;

/** Rows read from the database per page of the CSV: small enough to stay flat, big enough to be quick. */
const CSV_PAGE_ROWS = 1000;

function* transactionPages(deps: Deps): Generator<CsvValue[][]> {
  const dateOf = siteCalendarDates(deps.config.timeZone);
  let after: { succeededAt: Date; id: number } | null = null;
  for (;;) {
    const rows = queries.adminTransactionsAfter(deps.db, after, CSV_PAGE_ROWS);
    if (rows.length === 0) return;
    yield rows.map((row) => {
      const transaction = present(row);
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
        transaction.feeCents === null ? 'pending' : 'known',
        dateOf(transaction.createdAt),
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
