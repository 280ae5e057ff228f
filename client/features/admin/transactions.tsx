import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import { formatEin } from '../../../shared/ein';
import { errorMessage } from '../../api/http';
import { safeWebsite } from '../../lib/links';
import { useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Pagination } from '../../ui/pagination';
import { SiteDate } from '../../ui/site-date';
import { pageFromUrl } from '../../../shared/api-paths';
import { Spinner } from '../../ui/spinner';
import { transactionsQueryOptions } from './admin-money-api';
import { NetworkLink } from '../../ui/needs-network';
import './admin-money.css';

/**
 * The Transactions tab (spec part 2 sections 2 and 3, Admin transaction row): every succeeded
 * payment, newest first, 20 to a page, and the whole list as CSV.
 */
export function TransactionsAdmin() {
  const headingId = useId();
  const { siteName } = useSite();
  const [searchParams] = useSearchParams();
  const page = pageFromUrl(searchParams.get('page'));
  const transactions = useQuery(transactionsQueryOptions(page));
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
      {transactions.isPending ? (
        <Spinner label="Loading transactions" />
      ) : transactions.isError ? (
        <Alert tone="error">{errorMessage(transactions.error, adminMoneyMessages.transactionsFailed)}</Alert>
      ) : transactions.data.results.length === 0 ? (
        <p className="empty-state">No transactions!</p>
      ) : (
        <>
          <p className="admin-count">
            {transactions.data.totalCount.toLocaleString('en-US')}{' '}
            {transactions.data.totalCount === 1 ? 'payment' : 'payments'}
          </p>
          <div className="admin-table-frame" tabIndex={0} role="region" aria-labelledby={headingId}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Charity</th>
                  <th scope="col">Fundraiser</th>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col" className="number">
                    Donation
                  </th>
                  <th scope="col" className="number">
                    Tip
                  </th>
                </tr>
              </thead>
              <tbody>
                {transactions.data.results.map((row) => {
                  const website = safeWebsite(row.organizationWebsite);
                  return (
                    <tr key={row.id}>
                      <td>
                        <SiteDate moment={row.createdAt} withTime />
                      </td>
                      <td>
                        {row.organizationName === null ? (
                          <span className="admin-muted">{siteName} (a gift to the site)</span>
                        ) : website ? (
                          <a href={website} target="_blank" rel="noreferrer">
                            {row.organizationName}
                          </a>
                        ) : (
                          row.organizationName
                        )}
                        {row.ein && <span className="admin-muted admin-ein">EIN {formatEin(row.ein)}</span>}
                      </td>
                      <td>
                        {row.projectId === null ? (
                          '—'
                        ) : (
                          <Link to={`/projects/${row.projectId}`}>
                            {row.projectName ?? `Fundraiser ${row.projectId}`}
                          </Link>
                        )}
                      </td>
                      <td>{row.name}</td>
                      <td>{row.email}</td>
                      <td className="number">
                        {formatCents(row.amountCents)}
                        {row.refundedCents > 0 && (
                          <span className="admin-muted admin-refunded">
                            {formatCents(row.refundedCents)} of the payment refunded
                          </span>
                        )}
                      </td>
                      <td className="number">{formatCents(row.tipCents)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pagination page={page} totalPages={totalPages} label="Transactions" />
        </>
      )}
    </div>
  );
}
