import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import { type Disbursement, type DisbursementSummary, PENDING_STALE_MS } from '../../../shared/answers/admin-money';
import { formatEin } from '../../../shared/ein';
import { errorMessage } from '../../api/http';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { Pagination } from '../../ui/pagination';
import { MoneyCell } from '../../ui/money-cell';
import { SiteDate } from '../../ui/site-date';
import { pageFromUrl } from '../../../shared/api-paths';
import { Spinner } from '../../ui/spinner';
import {
  historyQueryOptions,
  initializeErrorMessage,
  summariesQueryOptions,
  useInitializeDisbursement,
  useUpdateDisbursementStatus,
} from './admin-money-api';
import { NetworkButton } from '../../ui/needs-network';
import '../../ui/table-cards.css';
import './admin-money.css';
import { LoadFailure } from '../../ui/offline-notice';

/**
 * The Disbursements tab (spec part 2 sections 2-4): what each charity was given and is still owed,
 * what is owed first; Disburse sends the admin to the giving site to pay it; a charity's history
 * (?ein=) pages its disbursements, and only PENDING ones can be completed or canceled, for good.
 */
export function DisbursementsAdmin() {
  const headingId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedEin = searchParams.get('ein');
  const summaries = useQuery(summariesQueryOptions);
  const [disbursing, setDisbursing] = useState<DisbursementSummary | null>(null);

  const showHistory = (ein: string) => setSearchParams({ ein }, { preventScrollReset: true });
  const selected = summaries.data?.results.find((summary) => summary.ein === selectedEin);

  return (
    <div className="stack">
      <div className="admin-toolbar">
        <h2 id={headingId}>Disbursements</h2>
        <Link
          className="button button-secondary"
          to={
            selectedEin ? `/admin/disbursements/new?ein=${encodeURIComponent(selectedEin)}` : '/admin/disbursements/new'
          }
        >
          Record a manual disbursement
        </Link>
      </div>
      {summaries.isPending ? (
        <Spinner label="Loading disbursements" />
      ) : summaries.isError ? (
        <LoadFailure error={summaries.error} retry={summaries.refetch}>
          <Alert tone="error">{errorMessage(summaries.error, adminMoneyMessages.generic)}</Alert>
        </LoadFailure>
      ) : summaries.data.results.length === 0 ? (
        <p className="empty-state">No disbursements!</p>
      ) : (
        <div className="admin-table-frame" tabIndex={0} role="region" aria-labelledby={headingId}>
          <table className="admin-table admin-cards table-cards">
            <thead>
              <tr>
                <th scope="col">Charity</th>
                <th scope="col" className="number">
                  Donated
                </th>
                <th scope="col" className="number">
                  After fees
                </th>
                <th scope="col" className="number">
                  Disbursed
                </th>
                <th scope="col" className="number">
                  Outstanding
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {summaries.data.results.map((summary) => (
                <tr key={summary.ein} className={summary.ein === selectedEin ? 'admin-row-selected' : undefined}>
                  <th scope="row" className="admin-charity">
                    {summary.charityName}
                    <span className="admin-muted admin-ein">EIN {formatEin(summary.ein)}</span>
                    {summary.hasPending && <PendingBadge since={summary.pendingSince} />}
                    {summary.outstandingCents < 0 && (
                      <span
                        className="admin-badge admin-badge-overpaid"
                        title="Paid out, then refunded or lost in a dispute: the charity holds more than it was given."
                      >
                        Overpaid {formatCents(-summary.outstandingCents)}
                      </span>
                    )}
                  </th>
                  <MoneyCell label="Donated" cents={summary.donatedCents} />
                  <MoneyCell label="After fees" cents={summary.afterFeesDonatedCents} />
                  <MoneyCell label="Disbursed" cents={summary.disbursedCents} />
                  <MoneyCell
                    label="Outstanding"
                    cents={summary.outstandingCents}
                    className={summary.outstandingCents < 0 ? 'admin-outstanding admin-negative' : 'admin-outstanding'}
                  />
                  <td>
                    <div className="admin-row-actions">
                      <button
                        type="button"
                        className="button button-primary"
                        disabled={summary.hasPending || summary.outstandingCents <= 0}
                        aria-label={`Disburse to ${summary.charityName}`}
                        title={
                          summary.hasPending
                            ? 'Complete, cancel or mark failed the pending disbursement first.'
                            : summary.outstandingCents <= 0
                              ? 'Nothing is outstanding.'
                              : undefined
                        }
                        onClick={() => setDisbursing(summary)}
                      >
                        Disburse
                      </button>
                      <button
                        type="button"
                        className="button button-secondary"
                        aria-label={`History of ${summary.charityName}`}
                        aria-pressed={summary.ein === selectedEin}
                        onClick={() => showHistory(summary.ein)}
                      >
                        History
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {selectedEin && (
        <DisbursementHistory ein={selectedEin} charityName={selected?.charityName ?? formatEin(selectedEin)} />
      )}
      {disbursing && <DisburseDialog summary={disbursing} onClose={() => setDisbursing(null)} />}
    </div>
  );
}

/** Confirms the amount, starts the PENDING disbursement and leaves for the giving site. */
function DisburseDialog({ summary, onClose }: { summary: DisbursementSummary; onClose: () => void }) {
  const initialize = useInitializeDisbursement();
  const leaving = initialize.isSuccess;
  return (
    <Dialog open onOpenChange={(open) => !open && !leaving && onClose()} title={`Disburse to ${summary.charityName}`}>
      <div className="dialog-body stack">
        <p>
          You are about to pay <strong>{formatCents(summary.outstandingCents)}</strong>, everything outstanding, to{' '}
          {summary.charityName} (EIN {formatEin(summary.ein)}).
        </p>
        <p>
          The giving site opens with a once-off bank donation filled in. When you finish there, it brings you back here
          and the disbursement is marked complete; if you leave without paying, it is canceled.
        </p>
        {initialize.isError && <Alert tone="error">{initializeErrorMessage(initialize.error)}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" disabled={leaving} onClick={onClose}>
            Cancel
          </button>
          <NetworkButton
            action="start the disbursement"
            type="button"
            className="button button-primary"
            disabled={initialize.isPending || leaving}
            onClick={() =>
              initialize.mutate(
                { ein: summary.ein, amountCents: summary.outstandingCents },
                { onSuccess: ({ redirectUrl }) => window.location.assign(redirectUrl) },
              )
            }
          >
            {initialize.isPending || leaving ? 'Opening the giving site...' : 'Continue to the giving site'}
          </NetworkButton>
        </div>
      </div>
    </Dialog>
  );
}

const statusLabel: Record<Disbursement['status'], string> = {
  PENDING: 'Pending',
  COMPLETE: 'Complete',
  CANCELED: 'Canceled',
  FAILED: 'Failed',
};

function DisbursementHistory({ ein, charityName }: { ein: string; charityName: string }) {
  const headingId = useId();
  const [searchParams] = useSearchParams();
  const page = pageFromUrl(searchParams.get('page'));
  const history = useQuery(historyQueryOptions(ein, page));
  const [ending, setEnding] = useState<{ row: Disbursement; status: Ending } | null>(null);
  const totalPages = Math.ceil((history.data?.totalCount ?? 0) / PAGE_SIZE);
  const heading = useRef<HTMLHeadingElement>(null);
  // Choosing a charity moves focus (and the view) to its history, below the table.
  useEffect(() => heading.current?.focus(), [ein]);

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h3 id={headingId} tabIndex={-1} ref={heading}>
        History: {charityName}
      </h3>
      {history.isPending ? (
        <Spinner label="Loading the history" />
      ) : history.isError ? (
        <LoadFailure error={history.error} retry={history.refetch}>
          <Alert tone="error">{errorMessage(history.error, adminMoneyMessages.generic)}</Alert>
        </LoadFailure>
      ) : history.data.results.length === 0 ? (
        <p className="empty-state">No disbursements!</p>
      ) : (
        <>
          <div className="admin-table-frame" tabIndex={0} role="region" aria-label={`Disbursements to ${charityName}`}>
            <table className="admin-table admin-cards table-cards">
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col" className="number">
                    Amount
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Source</th>
                  <th scope="col">Finalized</th>
                  <th scope="col">Notes</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.data.results.map((row) => (
                  <tr key={row.id}>
                    <td>
                      <SiteDate moment={row.createdAt} withTime />
                    </td>
                    <MoneyCell label="Amount" cents={row.amountCents} />
                    <td data-label="Status">
                      {row.status === 'PENDING' ? (
                        <PendingBadge since={row.createdAt} />
                      ) : (
                        <span className={`admin-badge admin-badge-${row.status.toLowerCase()}`}>
                          {statusLabel[row.status]}
                        </span>
                      )}
                      {row.overriddenOutstandingCents !== null && (
                        <span className="admin-muted admin-detail">
                          Confirmed over the {formatCents(row.overriddenOutstandingCents)} outstanding
                        </span>
                      )}
                    </td>
                    <td data-label="Source">{row.source === 'MANUAL' ? 'Manual' : row.source}</td>
                    <td data-label="Finalized">{row.finalizedAt ? <SiteDate moment={row.finalizedAt} /> : '—'}</td>
                    {/* An empty note is no line of its own on a phone's card. */}
                    <td className="admin-notes" data-label={row.notes ? 'Notes' : undefined}>
                      {row.notes ?? ''}
                    </td>
                    <td className={row.status === 'PENDING' ? undefined : 'admin-empty'}>
                      {row.status === 'PENDING' && (
                        <div className="admin-row-actions">
                          <button
                            type="button"
                            className="button button-primary"
                            onClick={() => setEnding({ row, status: 'COMPLETE' })}
                          >
                            Complete
                          </button>
                          <button
                            type="button"
                            className="button button-danger"
                            onClick={() => setEnding({ row, status: 'CANCELED' })}
                          >
                            Cancel
                          </button>
                          <button
                            type="button"
                            className="button button-secondary"
                            onClick={() => setEnding({ row, status: 'FAILED' })}
                          >
                            Mark failed
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} totalPages={totalPages} label={`History of ${charityName}`} />
        </>
      )}
      {ending && <EndDisbursementDialog {...ending} onClose={() => setEnding(null)} />}
    </section>
  );
}

type Ending = 'COMPLETE' | 'CANCELED' | 'FAILED';

const ending: Record<Ending, { title: string; button: string; tone: string; means: (row: Disbursement) => string }> = {
  COMPLETE: {
    title: 'Mark this disbursement complete?',
    button: 'Mark complete',
    tone: 'button-primary',
    means: (row) =>
      `Only if ${formatCents(row.amountCents)} really reached ${row.charityName}: it then counts as paid out.`,
  },
  CANCELED: {
    title: 'Cancel this disbursement?',
    button: 'Cancel disbursement',
    tone: 'button-danger',
    means: (row) =>
      `Only if ${formatCents(row.amountCents)} was not paid to ${row.charityName}: it goes back to outstanding.`,
  },
  FAILED: {
    title: 'Mark this disbursement failed?',
    button: 'Mark failed',
    tone: 'button-danger',
    means: (row) =>
      `Only if the payment of ${formatCents(row.amountCents)} to ${row.charityName} failed (the giving site reported an error, or the bank sent it back): it goes back to outstanding, and the history keeps it as failed.`,
  },
};

/** How long a disbursement has waited for the giving site; stale after a day (it never came back). */
function PendingBadge({ since }: { since: string | null }) {
  // The moment the page was drawn: the age need not tick while it is open.
  const [now] = useState(() => Date.now());
  const waitedMs = since === null ? 0 : now - Date.parse(since);
  if (waitedMs < PENDING_STALE_MS) return <span className="admin-badge admin-badge-pending">Pending</span>;
  const hours = Math.floor(waitedMs / (60 * 60 * 1000));
  const age = hours < 48 ? `${hours} hours` : `${Math.floor(hours / 24)} days`;
  return (
    <span
      className="admin-badge admin-badge-stale"
      title="The giving site never reported back. Complete, cancel or mark it failed from the history."
    >
      Stale: pending {age}
    </span>
  );
}

/** Complete, Cancel or Mark failed, after saying it cannot be undone. */
function EndDisbursementDialog({ row, status, onClose }: { row: Disbursement; status: Ending; onClose: () => void }) {
  const update = useUpdateDisbursementStatus();
  const words = ending[status];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={words.title} className="dialog-narrow">
      <div className="dialog-body stack">
        <p>{words.means(row)} This cannot be undone.</p>
        {update.isError && <Alert tone="error">{adminMoneyMessages.updateFailed}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Go back
          </button>
          <NetworkButton
            action="update the disbursement"
            type="button"
            className={`button ${words.tone}`}
            disabled={update.isPending}
            onClick={() => update.mutate({ id: row.id, status }, { onSuccess: onClose })}
          >
            {update.isPending ? 'Saving...' : words.button}
          </NetworkButton>
        </div>
      </div>
    </Dialog>
  );
}
