import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { serverMessages } from '../../../shared/api';
import { ApiError } from '../../api/errors';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { NotFound } from '../../ui/not-found';
import { Spinner } from '../../ui/spinner';
import { purchaseLinkQueryOptions } from './donations-api';
import { GrantedAlbum } from './granted-album';
import './donations.css';
import { LoadFailure } from '../../ui/offline-notice';

// /purchases/{token}: the receipt's link (DESIGN.md "Contract details for money" and for wave 3):
// the album to play at once in the site's player and to download, for as long as the link works,
// and an invitation to create an account (with the buyer's address) to keep it in Your music.

const yourMusic = [{ to: '/music/albums/past-donations', label: 'Go to Your music' }];

export function PurchasePage() {
  const { token = '' } = useParams();
  const query = useQuery(purchaseLinkQueryOptions(token));
  const user = useUser();
  usePageTitle(query.data ? query.data.project.name : 'Your album');
  if (query.isPending) return <Spinner label="Loading your album" />;
  if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    // Both are 404 (DESIGN.md, receipt); only a link that ran out says so.
    if (status === 404 && query.error.message === serverMessages.purchaseLinkExpired) {
      return (
        <NotFound title="This link has expired" links={yourMusic}>
          Download links work for 30 days. Log in with the email address you donated with to find the album in Your
          music, or contact us for a new link.
        </NotFound>
      );
    }
    if (status === 404) {
      return (
        <NotFound title="This link is not valid" links={yourMusic}>
          Check that you opened the whole link from your receipt email. Albums bought with your email address are also
          in Your music once you log in with it.
        </NotFound>
      );
    }
    return (
      <div className="page narrow">
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      </div>
    );
  }
  const { project, expiresAt, email, tracks, gift } = query.data;
  return (
    <div className="page narrow stack purchase-page">
      <div className="purchase-album">
        {project.image ? (
          <img
            className="purchase-cover"
            src={project.image}
            alt={`Album cover of ${project.name}`}
            width={160}
            height={160}
          />
        ) : null}
        <div>
          <h1>{project.name}</h1>
          <p>by {project.artistName}</p>
        </div>
      </div>
      {gift && (
        <section className="purchase-gift card stack" aria-label="Your gift">
          <p className="purchase-gift-from">
            A gift from <strong>{gift.fromName}</strong>
          </p>
          {gift.message && <blockquote className="purchase-gift-message">{gift.message}</blockquote>}
        </section>
      )}
      <GrantedAlbum
        album={project}
        tracks={tracks}
        downloadHref={`/api/purchases/${encodeURIComponent(token)}/download`}
        access={{ via: 'receipt', token }}
      />
      <p className="field-hint">
        This link works until {new Date(expiresAt).toLocaleDateString('en-US', { dateStyle: 'long' })}.
      </p>
      <section className="card stack">
        <h2>Keep it in Your music</h2>
        {user ? (
          <p>
            Albums bought with your verified email address are in{' '}
            <Link to="/music/albums/past-donations">Your music</Link>.
          </p>
        ) : (
          <p>
            Create an account with <strong>{email}</strong>, and the album is in Your music on every device, after the
            link has expired too. <Link to={`/signup?email=${encodeURIComponent(email)}`}>Create an account</Link>
          </p>
        )}
      </section>
    </div>
  );
}
