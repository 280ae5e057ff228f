import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

export function AlbumPage() {
  usePageTitle('Album not found');
  return (
    <div className="page narrow center stack">
      <h1>Album not found</h1>
      <p>
        This album isn't in your music. Albums appear here once you donate to their fundraiser, or when they belong to
        one of your own fundraisers.
      </p>
      <p className="actions">
        <Link className="button button-primary" to="/music">
          Back to Your music
        </Link>
      </p>
    </div>
  );
}
