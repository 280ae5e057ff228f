import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { fundraiserQueryOptions } from '../../api/fundraisers';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { fundraiserPath, fundraiserTitle } from '../../../shared/public-pages';
import { NotFound } from '../../ui/not-found';
import { Spinner } from '../../ui/spinner';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { DonationForm } from './donation-form';
import './donations.css';
import { isNotFound } from '../../api/http';
import { LoadFailure } from '../../ui/offline-notice';

// The donate page, /projects/{slug}/donate (spec part 2 section 2; issue 10): guests and
// logged-in fans alike. Only a published fundraiser takes donations.

export function DonatePage() {
  const { projectSlugOrId = '' } = useParams();
  const query = useQuery(fundraiserQueryOptions(projectSlugOrId));
  const fundraiser = query.data;
  usePageTitle(fundraiser ? `Donate to ${fundraiserTitle(fundraiser)}` : 'Donate');

  if (query.isPending) return <Spinner label="Loading the fundraiser" />;
  if (query.isError) {
    if (isNotFound(query.error)) {
      return (
        <NotFound title="Fundraiser not found" links={[{ to: '/browse', label: 'Browse fundraisers' }]}>
          This fundraiser does not exist, or it is not public.
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
  if (!fundraiser) return null;
  const title = fundraiserTitle(fundraiser);
  if (fundraiser.status !== 'PUBLISHED') {
    return (
      <NotFound title="Not taking donations" links={[{ to: fundraiserPath(fundraiser), label: `Back to ${title}` }]}>
        Donations open once this fundraiser is published.
      </NotFound>
    );
  }
  return (
    <div className="page donate-page stack">
      <p>
        <Link to={fundraiserPath(fundraiser)}>← Back to {title}</Link>
      </p>
      <h1>Donate to a fundraiser</h1>
      <div className="donate-fundraiser">
        <UploadedPicture className="donate-cover" uploadId={fundraiser.albumCover} alt="" sizes="96px" eager />
        <div>
          <p className="donate-fundraiser-name">{title}</p>
          <p className="donate-fundraiser-artist">by {fundraiser.artist.name}</p>
          <p className="donate-fundraiser-charity">For {fundraiser.supportedOrg}</p>
        </div>
      </div>
      <DonationForm
        target={{ kind: 'fundraiser', projectId: fundraiser.id, minimumCents: fundraiser.minimumDonation }}
      />
    </div>
  );
}
