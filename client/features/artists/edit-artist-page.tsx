import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { linkValues } from '../../../shared/artist-links';
import { updateArtistSchema } from '../../../shared/schemas/artists';
import { ApiError } from '../../api/errors';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { artistPath } from '../../../shared/public-pages';
import { Spinner } from '../../ui/spinner';
import { userArtistsQueryOptions } from '../../api/artists';
import { artistByIdQueryOptions, useUpdateArtist } from './api';
import { ArtistForm } from './artist-form';
import { ArtistNotFound } from './artist-not-found';
import './artists.css';
import { LoadFailure } from '../../ui/offline-notice';

/** Artist edit (spec part 1 section 2): owners and admins; afterwards the artist page. */
export function EditArtistPage() {
  const { artistId = '' } = useParams();
  const id = /^\d+$/.test(artistId) ? Number(artistId) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return <ArtistNotFound forEditing />;
  // Keyed so that moving from one artist's edit page to another's starts a fresh form.
  return <EditArtist key={id} id={id} />;
}

function EditArtist({ id }: { id: number }) {
  const user = useUser();
  const navigate = useNavigate();
  const artist = useQuery(artistByIdQueryOptions(id));
  // Anyone may read a published artist, but only its owner or an admin may change it.
  const own = useQuery({ ...userArtistsQueryOptions, enabled: !user?.isAdmin });
  const update = useUpdateArtist();
  const notYours = !user?.isAdmin && own.isSuccess && !own.data.some((item) => item.id === id);
  const notFound = (artist.error instanceof ApiError && artist.error.status === 404) || notYours;
  usePageTitle(notFound ? 'Artist not found' : artist.data ? `Edit ${artist.data.name}` : 'Edit artist');

  if (notFound) return <ArtistNotFound forEditing />;
  if (artist.isPending || (!user?.isAdmin && own.isPending)) return <Spinner label="Loading artist" />;
  if (artist.isError) {
    return (
      <div className="page narrow">
        <LoadFailure error={artist.error} retry={artist.refetch}>
          <Alert tone="error">Something went wrong, unable to fetch artist</Alert>
        </LoadFailure>
      </div>
    );
  }

  const current = artist.data;
  return (
    <div className="page narrow stack">
      <h1>Edit artist</h1>
      <ArtistForm
        schema={updateArtistSchema}
        defaultValues={{
          name: current.name,
          description: current.description,
          website: current.website ?? '',
          profileImage: '',
          ...linkValues(current),
        }}
        currentImage={current.profileImage}
        submitLabel="Save changes"
        pendingLabel="Saving..."
        errorTitle="Unable to update artist"
        cancelTo={artistPath(current)}
        submit={async (input) => {
          const { urlSlug } = await update.mutateAsync({ id, input });
          navigate(`/artists/${urlSlug}`);
        }}
      />
    </div>
  );
}
