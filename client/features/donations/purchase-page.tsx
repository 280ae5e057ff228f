import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { NotFound } from '../../ui/not-found';
import { Spinner } from '../../ui/spinner';
import { purchaseLinkQueryOptions } from './donations-api';
import './donations.css';
import { isNotFound } from '../../api/http';
import { NetworkLink } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';

// /purchases/{token}: the receipt's link (DESIGN.md "Contract details for money"): the album,
// 'Download songs', and an invitation to create an account to stream it.

export function PurchasePage() {
  const { token = '' } = useParams();
  const query = useQuery(purchaseLinkQueryOptions(token));
  const user = useUser();
  usePageTitle(query.data ? query.data.project.name : 'Your album');
  if (query.isPending) return <Spinner label="Loading your album" />;
  if (query.isError) {
    if (isNotFound(query.error)) {
      return (
        <NotFound
          title="This link has expired"
          links={[{ to: '/music/albums/past-donations', label: 'Go to Your music' }]}
        >
          Download links work for 30 days. Log in with the email address you donated with to find the album in Your
          music, or contact us for a new link.
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
  const { project, expiresAt } = query.data;
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
      <p>
        <NetworkLink
          action="download the songs"
          className="button button-primary"
          href={`/api/purchases/${encodeURIComponent(token)}/download`}
          download
        >
          Download songs
        </NetworkLink>
      </p>
      <p className="field-hint">
        This link works until {new Date(expiresAt).toLocaleDateString('en-US', { dateStyle: 'long' })}.
      </p>
      <section className="card stack">
        <h2>Stream it any time</h2>
        {user ? (
          <p>
            Albums bought with your verified email address are in{' '}
            <Link to="/music/albums/past-donations">Your music</Link>.
          </p>
        ) : (
          <p>
            Create an account with the email address you donated with, and the album is in Your music on every device.{' '}
            <Link to="/signup">Create an account</Link>
          </p>
        )}
      </section>
    </div>
  );
}
