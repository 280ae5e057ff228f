import { useNavigate } from 'react-router';
import { linkValues } from '../../../shared/artist-links';
import { createArtistSchema } from '../../../shared/schemas/artists';
import { trackEvent } from '../../lib/analytics';
import { usePageTitle } from '../../lib/site';
import { useCreateArtist } from './api';
import { ArtistForm } from './artist-form';
import './artists.css';

/** Create artist (spec part 1 section 2); the route guard has already asked for a verified email. */
export function CreateArtistPage() {
  usePageTitle('Create a new artist');
  const navigate = useNavigate();
  const create = useCreateArtist();
  return (
    <div className="page narrow stack">
      <h1>Create a new artist</h1>
      <p className="lead">
        An artist profile is how fans find you. Every fundraiser you start belongs to one of your artists. It stays a
        draft, visible only to you, until you publish it.
      </p>
      <ArtistForm
        schema={createArtistSchema}
        defaultValues={{ name: '', description: '', website: '', profileImage: '', ...linkValues({}) }}
        submitLabel="Create artist"
        pendingLabel="Creating artist..."
        errorTitle="Unable to create artist"
        cancelTo="/artists/user"
        submit={async (input) => {
          await create.mutateAsync(input);
          // Spec part 1 section 4: the 'Submit' event goes first, waiting at most 2000 ms.
          await trackEvent('Submit');
          navigate('/artists/user');
        }}
      />
    </div>
  );
}
