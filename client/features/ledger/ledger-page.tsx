import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link, useLocation } from 'react-router';
import { formatCents } from '../../../shared/money';
import type { LedgerEntry, LedgerTotals } from '../../../shared/answers/admin-money';
import { formatEin } from '../../../shared/ein';
import { ledgerQueryOptions } from '../../api/ledger';
import { ledgerRowId } from '../../lib/links';
import { usePageTitle, useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { MoneyCell } from '../../ui/money-cell';
import { SiteDate } from '../../ui/site-date';
import { Spinner } from '../../ui/spinner';
import '../../ui/table-cards.css';
import './ledger.css';
import { LoadFailure } from '../../ui/offline-notice';

/**
 * "Where the money goes" (issue 11, beyond the spec): per charity, what fans gave, what is left
 * after the card processor's fees, what has been paid to the charity and what is still to be paid.
 * Every figure comes from the server's one money module; no donor appears anywhere on it.
 */
export function LedgerPage() {
  usePageTitle('Where the money goes');
  const { siteName } = useSite();
  const ledger = useQuery(ledgerQueryOptions);

  return (
    <article className="page stack ledger-page">
      <div className="stack ledger-intro">
        <h1>Where the money goes</h1>
        <p className="lead">
          Every donation on {siteName} is for a registered US charity. Here is, for each charity, what fans have given,
          what is left after card fees, and what we have paid to the charity so far.
        </p>
      </div>
      {ledger.isPending ? (
        <Spinner label="Loading the ledger" />
      ) : ledger.isError ? (
        <LoadFailure error={ledger.error} retry={ledger.refetch}>
          <Alert tone="error">Something went wrong! Please reload the page to try again.</Alert>
        </LoadFailure>
      ) : (
        <>
          <LedgerTotalsList totals={ledger.data.totals} />
          {ledger.data.results.length === 0 ? (
            <p className="empty-state">
              No donations yet. When fans donate to a fundraiser, its charity appears here.{' '}
              <Link to="/browse">Browse fundraisers</Link>
            </p>
          ) : (
            <LedgerTable entries={ledger.data.results} />
          )}
        </>
      )}
      <HowItWorks siteName={siteName} />
    </article>
  );
}

function LedgerTotalsList({ totals }: { totals: LedgerTotals }) {
  const figures = [
    { label: 'Given by fans', cents: totals.donatedCents },
    // Issue 26: what fans added so card fees did not come out of their donations.
    ...(totals.feeCoverCents > 0 ? [{ label: 'Card fees covered by fans, as paid', cents: totals.feeCoverCents }] : []),
    { label: 'After card fees', cents: totals.afterFeesDonatedCents },
    { label: 'Paid to charities', cents: totals.disbursedCents },
    // What charities are owed, never offset by one charity's overpayment (issue 23): that is apart.
    { label: 'Still to be paid', cents: totals.outstandingCents },
    ...(totals.clawbackCents > 0 ? [{ label: 'Paid before a refund', cents: totals.clawbackCents }] : []),
  ];
  return (
    <dl className="ledger-totals" aria-label="All charities together">
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt>{figure.label}</dt>
          <dd>{formatCents(figure.cents)}</dd>
        </div>
      ))}
    </dl>
  );
}

function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  const headingId = useId();
  const { hash } = useLocation();
  // The biggest causes first; the server's order is the admins' (what is owed first).
  const sorted = [...entries].sort(
    (a, b) => b.donatedCents - a.donatedCents || a.charityName.localeCompare(b.charityName),
  );
  const targeted = hash.slice(1);

  // A fundraiser page links to its charity's row; the rows arrive after the page, so the browser's
  // own jump to the fragment has already happened (and found nothing) by then.
  useEffect(() => {
    if (!targeted) return;
    document.getElementById(targeted)?.scrollIntoView({ block: 'center' });
  }, [targeted]);

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>By charity</h2>
      <div className="figures-table-frame">
        <table className="figures-table ledger-table table-cards" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Charity</th>
              <th scope="col" className="number">
                Given by fans
              </th>
              <th scope="col" className="number">
                After card fees
              </th>
              <th scope="col" className="number">
                Paid to the charity
              </th>
              <th scope="col" className="number">
                Still to be paid
              </th>
              <th scope="col">Last payment</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((entry) => {
              const id = ledgerRowId(entry.ein);
              return (
                <tr key={entry.ein} id={id} className={id === targeted ? 'is-targeted' : undefined}>
                  <th scope="row">
                    <span className="ledger-charity">{entry.charityName}</span>
                    <span className="muted ledger-ein">EIN {formatEin(entry.ein.replace(/\D/g, ''))}</span>
                  </th>
                  {entry.feeCoverCents > 0 ? (
                    <td className="number" data-label="Given by fans">
                      <span>
                        {formatCents(entry.donatedCents)}
                        <span className="muted ledger-fee-cover">
                          with {formatCents(entry.feeCoverCents)} of card fees covered, as paid
                        </span>
                      </span>
                    </td>
                  ) : (
                    <MoneyCell label="Given by fans" cents={entry.donatedCents} />
                  )}
                  <MoneyCell label="After card fees" cents={entry.afterFeesDonatedCents} />
                  <MoneyCell label="Paid to the charity" cents={entry.disbursedCents} />
                  {entry.outstandingCents < 0 ? (
                    <td className="number" data-label="Still to be paid">
                      <span>
                        {formatCents(0)}
                        <span className="muted ledger-overpaid">
                          Paid {formatCents(-entry.outstandingCents)} before a refund
                        </span>
                      </span>
                    </td>
                  ) : (
                    <MoneyCell label="Still to be paid" cents={entry.outstandingCents} />
                  )}
                  <td data-label="Last payment">
                    {entry.lastDisbursedAt ? (
                      <SiteDate moment={entry.lastDisbursedAt} />
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function HowItWorks({ siteName }: { siteName: string }) {
  const headingId = useId();
  return (
    <section className="stack ledger-explainer" aria-labelledby={headingId}>
      <h2 id={headingId}>How the figures work</h2>
      <ul className="ledger-notes">
        <li>
          <strong>Given by fans</strong> counts every successful donation, less what was refunded of it (a partial
          refund is shared with the tip in proportion) and what a card holder&rsquo;s bank is disputing or won back.
          Tips that fans add for {siteName} are not in it: they keep the site running.
        </li>
        <li>
          <strong>After card fees</strong> takes away the charity&rsquo;s share of the card processor&rsquo;s fee on
          each payment: a small percentage plus a few cents, shared with the tip in proportion when a fan adds one.{' '}
          {siteName} pays the fee on refunded money, not the charity, and takes nothing itself. Until the processor
          tells us a payment&rsquo;s fee, it counts at our estimate (2.2% + 30¢).
        </li>
        <li>
          <strong>Paid to the charity</strong> is what has reached the charity, most often as a bank donation through a
          giving platform, recorded once the payment is confirmed.
        </li>
        <li>
          <strong>Still to be paid</strong> is the difference, paid out in regular batches. When money already paid to a
          charity is refunded to a fan afterwards, the charity has been paid more than it kept: that shows as
          &ldquo;paid before a refund&rdquo; and is settled from its next donations, never from another charity&rsquo;s.
        </li>
      </ul>
      <p className="muted">No donor&rsquo;s name or email address is shown here or anywhere public.</p>
    </section>
  );
}
