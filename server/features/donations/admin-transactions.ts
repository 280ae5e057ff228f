import { PAGE_SIZE } from '../../../shared/constants';
import { plainDollars } from '../../../shared/money';
import type { AdminTransaction } from '../../../shared/answers/admin-money';
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
    // 0 until Stripe has told the fee (the donations' fee job records it).
    feeCents: row.feeCents ?? 0,
    refundedCents: row.refundedCents,
    // Succeeded rows always have the moment they succeeded; the fallback keeps the type honest.
    createdAt: (row.succeededAt ?? new Date(0)).toISOString(),
  };
}

export function listTransactions(deps: Deps, page: number, pageSize = PAGE_SIZE) {
  const found = queries.listAdminTransactions(deps.db, pageSize, page * pageSize);
  return { results: found.results.map(present), totalCount: found.totalCount };
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
] as const;

/** Rows read from the database per page of the CSV: small enough to stay flat, big enough to be quick. */
const CSV_PAGE_ROWS = 1000;

function* transactionPages(deps: Deps): Generator<CsvValue[][]> {
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
