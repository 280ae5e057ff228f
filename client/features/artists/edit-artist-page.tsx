import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

export function EditArtistPage() {
  usePageTitle('Artist not found');
  return (
    <div className="page narrow center stack">
      <h1>Artist not found</h1>
      <p>We couldn't find this artist. It may have been deleted, or it may belong to another account.</p>
      <p className="actions">
        <Link className="button button-primary" to="/browse/artists">
          Browse artists
        </Link>
        <Link className="button button-secondary" to="/artists/user">
          Your artists
        </Link>
      </p>
    </div>
  );
}
