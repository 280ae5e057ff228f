import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

/** Spec part 2 section 2 (Manage your fundraisers); the list fills in once fundraisers exist. */
export function YourFundraisersPage() {
  usePageTitle('Your fundraisers');
  return (
    <div className="page stack">
      <div className="page-heading">
        <h1>Manage your fundraisers</h1>
        <Link className="button button-primary" to="/fundraisers/new">
          New fundraiser
        </Link>
      </div>
      <div className="empty-state">
        <p>You don't have any fundraisers yet.</p>
        <p>
          <Link to="/fundraisers/new">Start a fundraiser</Link> to raise money for a charity you care about with your
          music.
        </p>
      </div>
    </div>
  );
}
