import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Giving, GivingCharity, GivingDonation } from '../../../shared/answers/giving';
import { formatEin } from '../../../shared/ein';
import { formatCents } from '../../../shared/money';
import { pagePaths } from '../../../shared/routes';
import { errorMessage } from '../../api/http';
import { useUser } from '../../lib/session';
import { usePageTitle, useSite } from '../../lib/site';
import { formatSiteDate } from '../../../shared/site-dates';
import { Alert } from '../../ui/alert';
import { MoneyCell } from '../../ui/money-cell';
import { NetworkButton, NetworkLink } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';
import { SiteDate } from '../../ui/site-date';
import { Spinner } from '../../ui/spinner';
import { TabLinks } from '../../ui/tab-links';
import { givingPaths, givingQueryOptions, useResendReceipt } from './giving-api';
import '../../ui/table-cards.css';
import './giving.css';

/** The year in the page's address (?year=2025), or null for the newest year the donor gave in. */
function yearFromUrl(value: string | null): number | null {
  return value !== null && /^\d{4}$/.test(value) ? Number(value) : null;
}

const yearPath = (year: number) => `${pagePaths.giving}?year=${year}`;

/**
 * Giving history, /account/giving (issue 26): every payment of the signed-in donor's verified
 * address, a year at a time in the site's time zone, with what went back, the tax-deductible part
 * of each, the totals by charity and EIN, a copy of any receipt, and the year-end statement.
 */
export function GivingPage() {
  usePageTitle('Giving history');
  const user = useUser();
  const [searchParams] = useSearchParams();
  const year = yearFromUrl(searchParams.get('year'));
  return (
    <div className="page stack giving-page">
      <h1>Giving history</h1>
      {user && !user.isEmailVerified ? <VerifyToSeeGiving email={user.email} /> : <GivingYear year={year} />}
    </div>
  );
}

/**
 * Payments belong to an email address, like the albums they bought (DESIGN.md section 3): until
 * the account proves it holds its address there is nothing to list, and "no donations" would be
 * untrue. The same treatment as Your music's.
 */
function VerifyToSeeGiving({ email }: { email: string }) {
  return (
    <div className="empty-state stack">
      <p>Verify your email to see your giving history.</p>
      <p className="field-hint">Donations made with {email} appear here once you confirm the address is yours.</p>
      <p>
        <Link className="button button-primary" to="/user/verify-email" state={{ from: pagePaths.giving }}>
          Verify your email
        </Link>
      </p>
    </div>
  );
}

function GivingYear({ year }: { year: number | null }) {
  const giving = useQuery(givingQueryOptions(year));
  if (giving.isPending) return <Spinner label="Loading your giving history" />;
  if (giving.isError) {
    return (
      <LoadFailure error={giving.error} retry={giving.refetch}>
        <Alert tone="error">
          {errorMessage(
            giving.error,
            'Something went wrong! Unable to load your giving history. Please try again later.',
          )}
        </Alert>
      </LoadFailure>
    );
  }
  const data = giving.data;
  return (
    <div className="stack" aria-busy={giving.isFetching}>
      <TabLinks
        label="Years"
        tabs={data.years.map((each) => ({ to: yearPath(each), label: String(each) }))}
        current={yearPath(data.year)}
      />
      {data.donations.length === 0 ? (
        <div className="empty-state stack">
          <p>No donations in {data.year}.</p>
          <p>
            <Link className="button button-secondary" to="/browse">
              Browse fundraisers
            </Link>
          </p>
        </div>
      ) : (
        <>
          <YearSummary giving={data} />
          <DonationsTable year={data.year} donations={data.donations} />
          <CharityTotals year={data.year} charities={data.byCharity} totalCents={data.taxDeductibleCents} />
        </>
      )}
    </div>
  );
}

function YearSummary({ giving }: { giving: Giving }) {
  return (
    <div className="giving-summary">
      <dl className="giving-total">
        <dt>Tax-deductible in {giving.year}</dt>
        <dd>{formatCents(giving.taxDeductibleCents)}</dd>
      </dl>
      <NetworkLink
        action="download your statement"
        className="button button-primary"
        href={givingPaths.statement(giving.year)}
        download={`giving-statement-${giving.year}.pdf`}
      >
        Download statement (PDF)
      </NetworkLink>
    </div>
  );
}

function DonationsTable({ year, donations }: { year: number; donations: GivingDonation[] }) {
  const headingId = useId();
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Donations in {year}</h2>
      <p className="muted giving-note">
        The tax-deductible part of a donation is what its charity kept (the donation and any card fee you covered, less
        the charity&rsquo;s share of any refund or dispute: a refund comes back from the donation and the tip in
        proportion) above the fundraiser&rsquo;s minimum, which buys the album. Tips are not tax-deductible.
      </p>
      <div className="figures-table-frame">
        <table className="figures-table giving-table table-cards" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Fundraiser and charity</th>
              <th scope="col" className="number">
                Donation
              </th>
              <th scope="col" className="number">
                Fee cover
              </th>
              <th scope="col" className="number">
                Tip
              </th>
              <th scope="col" className="number">
                Refunded
              </th>
              <th scope="col" className="number">
                Tax-deductible
              </th>
              <th scope="col">
                <span className="visually-hidden">Receipt</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {donations.map((donation) => (
              <DonationRow key={donation.paymentIntentId} donation={donation} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function DonationRow({ donation }: { donation: GivingDonation }) {
  const { siteName, timeZone } = useSite();
  return (
    <tr>
      <td className="giving-date">
        <SiteDate moment={donation.date} />
      </td>
      <td className="giving-what">
        <span className="giving-fundraiser">{donation.fundraiserName ?? `Gift to ${siteName}`}</span>
        {donation.charityName !== null && (
          <span className="muted giving-detail">
            {donation.charityName}
            {donation.ein && <span className="giving-ein">EIN {formatEin(donation.ein)}</span>}
          </span>
        )}
        {donation.gift && <span className="giving-badge">Gift for {donation.gift.recipientName}</span>}
      </td>
      {/* A gift to the site is all tip: no donation to a charity. */}
      <OptionalMoneyCell label="Donation" cents={donation.donationCents} />
      <OptionalMoneyCell label="Fee cover" cents={donation.feeCoverCents} />
      <OptionalMoneyCell label="Tip" cents={donation.tipCents} />
      <OptionalMoneyCell label="Refunded" cents={donation.refundedCents} />
      <MoneyCell label="Tax-deductible" cents={donation.taxDeductibleCents} />
      <td className="giving-receipt">
        <ResendReceipt
          paymentIntentId={donation.paymentIntentId}
          what={`Resend receipt of ${donation.fundraiserName ?? `your gift to ${siteName}`}, ${formatSiteDate(donation.date, timeZone)}`}
        />
      </td>
    </tr>
  );
}

/** A figure most payments do not have: a dash rather than a column of $0.00. */
function OptionalMoneyCell({ label, cents }: { label: string; cents: number }) {
  if (cents !== 0) return <MoneyCell label={label} cents={cents} />;
  return (
    <td className="number" data-label={label}>
      <span className="muted">—</span>
    </td>
  );
}

/** The receipt again, with what came of asking said where a screen reader hears it. */
function ResendReceipt({ paymentIntentId, what }: { paymentIntentId: string; what: string }) {
  const resend = useResendReceipt();
  const outcome = resend.isSuccess
    ? `Sent to ${resend.data.sentTo}. It can take a few minutes to arrive.`
    : resend.isError
      ? errorMessage(resend.error, 'Something went wrong! Unable to send the receipt. Please try again later.')
      : '';
  return (
    <div className="giving-resend">
      <NetworkButton
        action="send the receipt again"
        type="button"
        className="button button-secondary"
        disabled={resend.isPending}
        // Every row has one: its name (the visible words first) says which payment it is for.
        aria-label={resend.isPending ? undefined : what}
        onClick={() => resend.mutate(paymentIntentId)}
      >
        {resend.isPending ? 'Sending...' : 'Resend receipt'}
      </NetworkButton>
      {/* Always there, so that what it comes to say is announced (a live region added with its words is not). */}
      <p className={resend.isError ? 'giving-outcome giving-outcome-error' : 'giving-outcome'} role="status">
        {outcome}
      </p>
    </div>
  );
}

function CharityTotals({
  year,
  charities,
  totalCents,
}: {
  year: number;
  charities: GivingCharity[];
  totalCents: number;
}) {
  const headingId = useId();
  if (charities.length === 0) return null;
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>By charity</h2>
      <div className="figures-table-frame">
        <table className="figures-table giving-table table-cards" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Charity</th>
              <th scope="col">EIN</th>
              <th scope="col" className="number">
                Tax-deductible
              </th>
            </tr>
          </thead>
          <tbody>
            {charities.map((charity) => (
              <tr key={charity.ein}>
                <th scope="row" className="giving-charity">
                  {charity.charityName}
                </th>
                <td data-label="EIN">{formatEin(charity.ein)}</td>
                <MoneyCell label="Tax-deductible" cents={charity.taxDeductibleCents} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="giving-totals">
              <th scope="row" colSpan={2}>
                Total tax-deductible in {year}
              </th>
              <MoneyCell label="Total" cents={totalCents} />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
