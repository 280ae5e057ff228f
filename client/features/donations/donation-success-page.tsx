import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money';
import { donationMessages } from '../../../shared/schemas/donations';
import { ApiError } from '../../api/errors';
import { useUser } from '../../lib/session';
import { usePageTitle, useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Spinner } from '../../ui/spinner';
import { paymentConfigQueryOptions, transactionSummaryQueryOptions } from './donations-api';
import { TestModeBanner } from './test-mode-banner';
import './donations.css';
import { LoadFailure } from '../../ui/offline-notice';

// The donation success page, {donate page}/success?payment_intent=… (spec part 2 section 2): the
// thanks, the summary once the payment is fulfilled (retried while it is not yet), where the music
// is now, and what to do when the email does not come.

export function DonationSuccessPage() {
  const [params] = useSearchParams();
  const { projectSlugOrId } = useParams();
  const paymentIntentId = params.get('payment_intent') ?? '';
  const user = useUser();
  const { contactEmail } = useSite();
  const config = useQuery(paymentConfigQueryOptions);
  const cameBackUnpaid = params.get('redirect_status') === 'failed';
  const summary = useQuery({
    ...transactionSummaryQueryOptions(paymentIntentId),
    enabled: paymentIntentId !== '' && !cameBackUnpaid,
  });
  usePageTitle('Thank you!');
  const donatePath = projectSlugOrId ? `/projects/${encodeURIComponent(projectSlugOrId)}/donate` : '/support/donate';

  // Stripe comes back here after a redirect (a bank's check) whether or not the payment went through;
  // when it did not, the donate page says so and takes the donor through again (spec part 2 section 4).
  if (cameBackUnpaid) {
    return <Navigate replace to={`${donatePath}?${params.toString()}`} />;
  }
  if (!paymentIntentId) {
    return (
      <div className="page narrow stack">
        <h1>Payment not found</h1>
        <Alert tone="error">{donationMessages.missingIntent}</Alert>
        <p>
          <Link className="button button-primary" to={donatePath}>
            Go to the donate page
          </Link>
        </p>
      </div>
    );
  }

  const data = summary.data;
  return (
    <div className="page narrow stack donation-success">
      {config.data?.provider === 'test' && <TestModeBanner>This was a test payment.</TestModeBanner>}
      <h1>Thank you!</h1>
      {/* From the address, not the summary: it shows while the summary loads, and if it never does. */}
      <p className="lead">
        {projectSlugOrId
          ? 'Your donation has been received. The music is yours: we have emailed you a link to download it.'
          : 'Your gift has been received. Thank you for keeping the site running.'}
      </p>
      {summary.isPending ? (
        <Spinner label="Loading your donation" />
      ) : summary.isError ? (
        <LoadFailure error={summary.error} retry={summary.refetch}>
          <Alert tone="error">
            {summary.error instanceof ApiError && summary.error.status === 404
              ? donationMessages.fetchFailed
              : donationMessages.displayFailed}
          </Alert>
        </LoadFailure>
      ) : (
        data && (
          <section className="card stack" aria-labelledby="donation-summary-heading">
            <h2 id="donation-summary-heading">Summary</h2>
            <dl className="donation-success-summary">
              {data.project && (
                <>
                  <div>
                    <dt>Fundraiser</dt>
                    <dd>{data.project.name}</dd>
                  </div>
                  <div>
                    <dt>Artist</dt>
                    <dd>{data.project.artistName}</dd>
                  </div>
                  <div>
                    <dt>Donation</dt>
                    <dd>{formatCents(data.donationCents)}</dd>
                  </div>
                </>
              )}
              <div>
                <dt>{data.project ? 'Tip' : 'Gift'}</dt>
                <dd>{formatCents(data.tipCents)}</dd>
              </div>
              {data.project && (
                <div>
                  <dt>Tax-deductible part</dt>
                  <dd>{formatCents(data.taxDeductibleCents)}</dd>
                </div>
              )}
            </dl>
            <p>
              A receipt is on its way to <strong>{data.email}</strong>.
            </p>
            {data.project &&
              (user ? (
                <p>
                  <Link className="button button-primary" to="/music/albums/past-donations">
                    Go to Your music
                  </Link>
                </p>
              ) : (
                <p>
                  Create an account with <strong>{data.email}</strong> to stream the album any time, on any device.{' '}
                  <Link className="button button-primary" to={`/signup?email=${encodeURIComponent(data.email)}`}>
                    Create an account
                  </Link>
                </p>
              ))}
          </section>
        )
      )}
      <nav className="donation-next-steps" aria-label="What next">
        <Link to="/browse/projects">Browse music</Link>
        <Link to="/browse/artists">Browse artists</Link>
        <Link to="/fundraisers/new">Start a fundraiser</Link>
      </nav>
      <section className="stack" aria-labelledby="donation-help-heading">
        <h2 id="donation-help-heading">No email?</h2>
        <ul className="pages-list">
          <li>Give it a few minutes, then look in your spam or promotions folder.</li>
          <li>Check the address in the summary above: the receipt and the download link went there.</li>
          <li>
            Still nothing? Write to us at <a href={`mailto:${contactEmail}`}>{contactEmail}</a> with the address you
            used, and we will send it again.
          </li>
        </ul>
      </section>
    </div>
  );
}
