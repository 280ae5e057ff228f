import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

/** A missing artist, or a draft this visitor may not see (the server answers 404 for both). */
export function ArtistNotFound({ forEditing = false }: { forEditing?: boolean }) {
  usePageTitle('Artist not found');
  return (
    <div className="page narrow center stack">
      <h1>Artist not found</h1>
      <p>
        {forEditing
          ? "We couldn't find this artist. It may have been deleted, or it may belong to another account."
          : "We couldn't find this artist. The link may be mistyped, or the artist may have been removed."}
      </p>
      <p className="actions">
        <Link className="button button-primary" to="/browse/artists">
          Browse artists
        </Link>
        {forEditing && (
          <Link className="button button-secondary" to="/artists/user">
            Your artists
          </Link>
        )}
      </p>
    </div>
  );
}
