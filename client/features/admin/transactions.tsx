import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import type { AdminTransaction, TransactionStatus, TransactionTotals } from '../../../shared/answers/admin-money';
import { formatEin } from '../../../shared/ein';
import { errorMessage } from '../../api/http';
import { safeWebsite } from '../../lib/links';
import { useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Pagination } from '../../ui/pagination';
import { MoneyCell } from '../../ui/money-cell';
import { SiteDate } from '../../ui/site-date';
import { pageFromUrl } from '../../../shared/api-paths';
import { Spinner } from '../../ui/spinner';
import { transactionsQueryOptions, useAskAgainForFees } from './admin-money-api';
import { NetworkButton, NetworkLink } from '../../ui/needs-network';
import '../../ui/table-cards.css';
import './admin-money.css';
import { LoadFailure } from '../../ui/offline-notice';
import { formatCount } from '../../../shared/format-count';

const payments = (count: number) => `${formatCount(count)} ${count === 1 ? 'payment' : 'payments'}`;

/**
 * The Transactions tab (spec part 2 sections 2 and 3, Admin transaction row; issue 23): every
 * payment made, refunded and disputed ones too (each with what became of it), newest first, 20 to
 * a page, with the processor's fee of each (the estimate, flagged, until Stripe reports it), the
 * sums of the page and of all of them (the server adds them up from the money journal; the CSV's
 * rows add up to the same), and the whole list as CSV. One row per payment fits 1280 px; on a
 * phone each payment is a card.
 */
export function TransactionsAdmin() {
  const headingId = useId();
  const [searchParams] = useSearchParams();
  const page = pageFromUrl(searchParams.get('page'));
  const transactions = useQuery(transactionsQueryOptions(page));
  // Up here: once asked, the banner stays to say so, though the count it answers drops to 0.
  const askAgain = useAskAgainForFees();
  const totalPages = Math.ceil((transactions.data?.totalCount ?? 0) / PAGE_SIZE);

  return (
    <div className="stack">
      <div className="admin-toolbar">
        <h2 id={headingId}>Transactions</h2>
        <NetworkLink
          action="download the transactions"
          className="button button-secondary"
          href="/api/admin/transactions/download"
          download
        >
          Download all (CSV)
        </NetworkLink>
      </div>
      {transactions.data && (transactions.data.feesUnreported > 0 || askAgain.isSuccess) && (
        <UnreportedFees count={transactions.data.feesUnreported} askAgain={askAgain} />
      )}
      {transactions.isPending ? (
        <Spinner label="Loading transactions" />
      ) : transactions.isError ? (
        <LoadFailure error={transactions.error} retry={transactions.refetch}>
          <Alert tone="error">{errorMessage(transactions.error, adminMoneyMessages.transactionsFailed)}</Alert>
        </LoadFailure>
      ) : transactions.data.results.length === 0 ? (
        <p className="empty-state">No transactions!</p>
      ) : (
        <>
          <p className="admin-count">{payments(transactions.data.totalCount)}</p>
          <div className="admin-table-frame" tabIndex={0} role="region" aria-labelledby={headingId}>
            <table className="admin-table admin-cards table-cards">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Donor</th>
                  <th scope="col">Fundraiser and charity</th>
                  <th scope="col" className="number">
                    Donation
                  </th>
                  <th scope="col" className="number">
                    Tip
                  </th>
                  <th scope="col" className="number">
                    Fee
                  </th>
                  <th scope="col" className="number">
                    Refunded
                  </th>
                  <th scope="col" className="number">
                    Disputed
                  </th>
                </tr>
              </thead>
              <tbody>
                {transactions.data.results.map((row) => (
                  <TransactionRow key={row.id} row={row} />
                ))}
              </tbody>
              <tfoot>
                <TotalsRow
                  label={totalPages > 1 ? `This page: ${payments(transactions.data.totals.page.payments)}` : 'Total'}
                  totals={transactions.data.totals.page}
                />
                {totalPages > 1 && (
                  <TotalsRow
                    label={`All ${payments(transactions.data.totals.all.payments)}`}
                    totals={transactions.data.totals.all}
                  />
                )}
              </tfoot>
            </table>
          </div>
          <Pagination page={page} totalPages={totalPages} label="Transactions" />
        </>
      )}
    </div>
  );
}

function TransactionRow({ row }: { row: AdminTransaction }) {
  const { siteName } = useSite();
  const website = safeWebsite(row.organizationWebsite);
  return (
    <tr>
      <td className="admin-transaction-date">
        <SiteDate moment={row.createdAt} withTime />
        {row.status !== 'paid' && (
          <span className={`admin-badge admin-badge-${row.status}`}>{transactionStatusLabel[row.status]}</span>
        )}
      </td>
      <td className="admin-wrap">
        {row.name}
        <span className="admin-muted admin-detail">{row.email}</span>
      </td>
      <td className="admin-wrap">
        {row.projectId !== null ? (
          <Link to={`/projects/${row.projectId}`}>{row.projectName ?? `Fundraiser ${row.projectId}`}</Link>
        ) : row.organizationName === null ? (
          `${siteName} (a gift to the site)`
        ) : (
          '—'
        )}
        {row.organizationName !== null && (
          <span className="admin-muted admin-detail">
            {website ? (
              <a href={website} target="_blank" rel="noreferrer">
                {row.organizationName}
              </a>
            ) : (
              row.organizationName
            )}
            {row.ein && <span className="admin-ein">EIN {formatEin(row.ein)}</span>}
          </span>
        )}
      </td>
      <DonationCell label="Donation" cents={row.amountCents} coverCents={row.feeCoverCents} />
      <MoneyCell label="Tip" cents={row.tipCents} />
      <td className="number" data-label="Fee">
        <span>
          {formatCents(row.feeCents)}
          {row.feeStatus === 'pending' && (
            <span
              className="admin-badge admin-badge-pending"
              title="Stripe has not reported this fee yet: it counts at the estimate (2.2% + 30¢) until it does."
            >
              fee pending
            </span>
          )}
          {row.feeStatus === 'unreported' && (
            <span
              className="admin-badge admin-badge-unreported"
              title="Stripe never reported this fee: it counts at the estimate (2.2% + 30¢)."
            >
              never reported
            </span>
          )}
        </span>
      </td>
      <OptionalMoneyCell label="Refunded" cents={row.refundedCents} />
      <OptionalMoneyCell label="Disputed" cents={row.disputedCents} />
    </tr>
  );
}

/** Donations as charged, saying how much of them donors added to cover the card fee (issue 26). */
function DonationCell({ label, cents, coverCents }: { label: string; cents: number; coverCents: number }) {
  if (coverCents === 0) return <MoneyCell label={label} cents={cents} />;
  return (
    <td className="number" data-label={label}>
      <span>
        {formatCents(cents)}
        <span className="admin-muted admin-detail">incl. {formatCents(coverCents)} fee cover</span>
      </span>
    </td>
  );
}

/** The sums the server made of a set of rows: what those rows add up to, to the cent. */
function TotalsRow({ label, totals }: { label: string; totals: TransactionTotals }) {
  return (
    <tr className="admin-totals">
      <th scope="row" colSpan={3}>
        {label}
      </th>
      <DonationCell label="Donations" cents={totals.donationCents} coverCents={totals.feeCoverCents} />
      <MoneyCell label="Tips" cents={totals.tipCents} />
      <td className="number" data-label="Fees">
        <span>
          {formatCents(totals.feeCents)}
          {totals.feesPending > 0 && (
            <span className="admin-muted admin-detail">
              {totals.feesPending === 1 ? '1 fee pending' : `${totals.feesPending} fees pending`}
            </span>
          )}
        </span>
      </td>
      <MoneyCell label="Refunds" cents={totals.refundedCents} />
      <MoneyCell label="Disputes" cents={totals.disputedCents} />
    </tr>
  );
}

/** What became of a payment after the sale, when something did. */
const transactionStatusLabel: Record<TransactionStatus, string> = {
  paid: 'Paid',
  partly_refunded: 'Partly refunded',
  refunded: 'Refunded',
  disputed: 'Disputed',
  dispute_won: 'Dispute won',
  dispute_lost: 'Dispute lost',
};

/** A figure most payments do not have: a dash rather than a column of $0.00. */
function OptionalMoneyCell({ label, cents }: { label: string; cents: number }) {
  if (cents !== 0) return <MoneyCell label={label} cents={cents} />;
  return (
    <td className="number" data-label={label}>
      <span className="admin-muted">—</span>
    </td>
  );
}

/**
 * The fee job never gives up silently (issue 23): payments whose fee Stripe never reported are
 * counted at the estimate, said here, and asked about again on request.
 */
function UnreportedFees({ count, askAgain }: { count: number; askAgain: ReturnType<typeof useAskAgainForFees> }) {
  if (askAgain.isSuccess) {
    return (
      <Alert tone="success">
        <p role="status">
          {askAgain.data.asked === 1
            ? "Asking Stripe again for 1 payment's fee. It shows “fee pending” until Stripe reports it."
            : `Asking Stripe again for ${payments(askAgain.data.asked)}' fees. Each shows “fee pending” until Stripe reports it.`}
        </p>
      </Alert>
    );
  }
  return (
    <Alert
      tone="warning"
      title={count === 1 ? "Stripe never reported one payment's fee" : `Stripe never reported ${count} payments' fees`}
    >
      <p>
        After a day of asking, the processor has not told the fee of {count === 1 ? 'this payment' : 'these payments'}.{' '}
        {count === 1 ? 'It counts' : 'They count'} at the estimated fee (2.2% + 30¢) in the charities&rsquo; balances
        and the figures below, marked &ldquo;never reported&rdquo;.
      </p>
      {askAgain.isError && <p role="alert">{adminMoneyMessages.feeChecksFailed}</p>}
      <NetworkButton
        action="ask Stripe again"
        type="button"
        className="button button-secondary"
        disabled={askAgain.isPending}
        onClick={() => askAgain.mutate()}
      >
        {askAgain.isPending ? 'Asking...' : 'Ask Stripe again'}
      </NetworkButton>
    </Alert>
  );
}
