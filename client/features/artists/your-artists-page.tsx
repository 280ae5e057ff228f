import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Artist } from '../../../shared/answers/artists';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { ArtistTile } from '../../ui/artist-tile';
import { Spinner } from '../../ui/spinner';
import { userArtistsQueryOptions } from '../../api/artists';
import { DeleteArtistDialog } from './delete-artist-dialog';
import './artists.css';
import { LoadFailure } from '../../ui/offline-notice';

/** The user's artists with their controls (spec part 1 section 2, Your artists). */
export function YourArtistsPage() {
  usePageTitle('Your artists');
  const artists = useQuery(userArtistsQueryOptions);
  const [deleting, setDeleting] = useState<Artist | null>(null);

  return (
    <div className="page stack">
      <h1>Manage your artists</h1>
      {artists.isPending ? (
        <Spinner label="Loading your artists" />
      ) : artists.isError ? (
        <LoadFailure error={artists.error} retry={artists.refetch}>
          <Alert tone="error">Oops, something went wrong!</Alert>
        </LoadFailure>
      ) : (
        <>
          {artists.data.length === 0 && <p className="empty-state">Looks like you don't have any artists yet.</p>}
          <ul className="grid artist-tiles" role="list">
            {artists.data.map((artist) => (
              <li key={artist.id}>
                <ArtistTile artist={artist} headingLevel={2} onDelete={setDeleting} />
              </li>
            ))}
            <li>
              <Link className="card artist-new-tile" to="/artists/new">
                <span className="artist-new-tile-icon" aria-hidden="true">
                  +
                </span>
                <span>Create new artist</span>
              </Link>
            </li>
          </ul>
        </>
      )}
      <DeleteArtistDialog artist={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
