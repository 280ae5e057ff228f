import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

export function ArtistPage() {
  usePageTitle('Artist not found');
  return (
    <div className="page narrow center stack">
      <h1>Artist not found</h1>
      <p>We couldn't find this artist. The link may be mistyped, or the artist may have been removed.</p>
      <p className="actions">
        <Link className="button button-primary" to="/browse/artists">
          Browse artists
        </Link>
      </p>
    </div>
  );
}
