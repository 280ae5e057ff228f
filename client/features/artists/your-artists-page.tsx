import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';
import './artists.css';

export function YourArtistsPage() {
  usePageTitle('Your artists');
  return (
    <div className="page stack">
      <h1>Manage your artists</h1>
      <p className="empty-state">Looks like you don't have any artists yet.</p>
      <ul className="grid artist-tiles" role="list">
        <li>
          <Link className="card artist-new-tile" to="/artists/new">
            <span className="artist-new-tile-icon" aria-hidden="true">
              +
            </span>
            <span>Create new artist</span>
          </Link>
        </li>
      </ul>
    </div>
  );
}
