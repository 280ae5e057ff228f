import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import type { TransactionSummary } from '../../../shared/answers/donations';
import { formatCents } from '../../../shared/money';
import { donationMessages } from '../../../shared/donation-rules';
import { ApiError } from '../../api/errors';
import { useUser } from '../../lib/session';
import { usePageTitle, useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Spinner } from '../../ui/spinner';
import { paymentConfigQueryOptions, transactionSummaryQueryOptions } from './donations-api';
import { GrantedAlbum } from './granted-album';
import { type AlbumAccess, grantIn } from '../../ui/download-formats-api';
import { TestModeBanner } from './test-mode-banner';
import './donations.css';
import { LoadFailure } from '../../ui/offline-notice';

// The donation success page, {donate page}/success?payment_intent=… (spec part 2 section 2): once
// the payment is known to be fulfilled (the lookup is retried while it is not yet), the thanks, the
// album to play and download at once, the summary with its tax-deductible part, where the music
// is now, and what to do when the email does not come. Nothing thanks anyone before that: the
// address alone proves no payment (an unknown or failed intent ends on the spec's message).

export function DonationSuccessPage() {
  const [params] = useSearchParams();
  const { projectSlugOrId } = useParams();
  const paymentIntentId = params.get('payment_intent') ?? '';
  const { contactEmail } = useSite();
  const config = useQuery(paymentConfigQueryOptions);
  const cameBackUnpaid = params.get('redirect_status') === 'failed';
  const summary = useQuery({
    ...transactionSummaryQueryOptions(paymentIntentId),
    enabled: paymentIntentId !== '' && !cameBackUnpaid,
  });
  const data = summary.data;
  usePageTitle(data ? 'Thank you!' : 'Your donation');
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

  return (
    <div className="page narrow stack donation-success">
      {config.data?.provider === 'test' && (
        <TestModeBanner>{data ? 'This was a test payment.' : 'No card is charged here.'}</TestModeBanner>
      )}
      {data ? (
        <Thanks data={data} />
      ) : (
        <>
          <h1>Your donation</h1>
          {summary.isError ? (
            <LoadFailure error={summary.error} retry={summary.refetch}>
              <Alert tone="error">
                {summary.error instanceof ApiError && summary.error.status === 404
                  ? donationMessages.fetchFailed
                  : donationMessages.displayFailed}
              </Alert>
            </LoadFailure>
          ) : (
            <Spinner label="Looking up your donation" />
          )}
        </>
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
          <li>Check the address you gave when donating: the receipt and the download link went there.</li>
          <li>
            Still nothing? Write to us at <a href={`mailto:${contactEmail}`}>{contactEmail}</a> with the address you
            used, and we will send it again.
          </li>
        </ul>
      </section>
    </div>
  );
}

/** The grant of the album's zip reaches its other formats too (issue 27). */
function grantAccess(downloadUrl: string): AlbumAccess | null {
  const grant = grantIn(downloadUrl);
  return grant ? { via: 'grant', grant } : null;
}

function Thanks({ data }: { data: TransactionSummary }) {
  const user = useUser();
  const { project, gift } = data;
  return (
    <>
      <h1>Thank you!</h1>
      {gift ? (
        <>
          <p className="lead">Your gift is on its way to {gift.recipientName}</p>
          <p>
            We email them the album with your message; when they sign up with that address it is in their Your music.
            The album is theirs, not yours: to have it yourself, donate again without "This is a gift".
          </p>
        </>
      ) : (
        <p className="lead">
          {project
            ? 'Your donation has been received. The music is yours: we have emailed you a link to download it.'
            : 'Your gift has been received. Thank you for keeping the site running.'}
        </p>
      )}
      {project && data.downloadUrl && (
        <section className="card stack" aria-labelledby="donation-album-heading">
          <div className="granted-album-head">
            {project.image && <img className="granted-album-cover" src={project.image} alt="" width={88} height={88} />}
            <div>
              <h2 id="donation-album-heading">{project.name}</h2>
              <p>by {project.artistName}</p>
            </div>
          </div>
          <GrantedAlbum
            album={project}
            tracks={data.tracks}
            downloadHref={data.downloadUrl}
            access={grantAccess(data.downloadUrl)}
          />
        </section>
      )}
      <section className="card stack" aria-labelledby="donation-summary-heading">
        <h2 id="donation-summary-heading">Summary</h2>
        <dl className="donation-success-summary">
          {project && (
            <>
              <div>
                <dt>Fundraiser</dt>
                <dd>{project.name}</dd>
              </div>
              <div>
                <dt>Artist</dt>
                <dd>{project.artistName}</dd>
              </div>
              {gift && (
                <div>
                  <dt>Gift for</dt>
                  <dd>{gift.recipientName}</dd>
                </div>
              )}
              <div>
                <dt>Donation</dt>
                <dd>{formatCents(data.donationCents)}</dd>
              </div>
              {data.feeCoverCents > 0 && (
                <div>
                  <dt>Card fee covered</dt>
                  <dd>{formatCents(data.feeCoverCents)}</dd>
                </div>
              )}
            </>
          )}
          <div>
            <dt>{project ? 'Tip' : 'Gift'}</dt>
            <dd>{formatCents(data.tipCents)}</dd>
          </div>
          {project && (
            <div>
              <dt>Tax-deductible part</dt>
              <dd>{formatCents(data.taxDeductibleCents)}</dd>
            </div>
          )}
        </dl>
        {data.charity && <p className="donation-tax-note">{taxSentence(data, data.charity)}</p>}
        <p>
          A receipt is on its way to <strong>{data.email}</strong>.
        </p>
        {project &&
          !gift &&
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
    </>
  );
}

/**
 * The tax-deductible part in one sentence (DESIGN.md section 4): what was given above the
 * fundraiser's minimum, which buys the album, never below 0, and who received it.
 */
function taxSentence(data: TransactionSummary, charity: { name: string; ein: string }): string {
  const minimum = formatCents(data.minimumCents);
  const receiver = `${charity.name} (EIN ${charity.ein})`;
  return data.taxDeductibleCents > 0
    ? `${formatCents(data.taxDeductibleCents)} of your donation is tax-deductible: what you gave ${receiver} above the fundraiser's ${minimum} minimum, which buys the album.`
    : `None of your donation is tax-deductible: the fundraiser's ${minimum} minimum buys the album, and only what you give ${receiver} above it counts as a gift.`;
}
