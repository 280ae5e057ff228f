import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { userFundraisersQueryOptions } from '../../api/fundraisers';
import { usePageTitle } from '../../lib/site';
import { FundraiserTile } from '../../ui/fundraiser-tile';
import { Spinner } from '../../ui/spinner';
import './fundraisers.css';
import { isOfflineFailure, OfflineNotice } from '../../ui/offline-notice';

/** The user's fundraisers, each opening its manage page (spec part 2 section 2, 'Manage your fundraisers'). */
export function YourFundraisersPage() {
  usePageTitle('Your fundraisers');
  const fundraisers = useQuery(userFundraisersQueryOptions());
  // A failing list is silently ignored (spec part 2 section 8): it reads as an empty one. Not
  // offline, though: "no fundraisers yet" would be untrue.
  const list = fundraisers.data ?? [];
  return (
    <div className="page stack">
      <div className="page-heading">
        <h1>Manage your fundraisers</h1>
        <Link className="button button-primary" to="/fundraisers/new">
          New fundraiser
        </Link>
      </div>
      {fundraisers.isPending ? (
        <Spinner label="Loading your fundraisers" />
      ) : !fundraisers.data && isOfflineFailure(fundraisers.error) ? (
        <OfflineNotice onRetry={() => void fundraisers.refetch()} />
      ) : list.length === 0 ? (
        <div className="empty-state">
          <p>You don't have any fundraisers yet.</p>
          <p>
            <Link to="/fundraisers/new">Start a fundraiser</Link> to raise money for a charity you care about with your
            music.
          </p>
        </div>
      ) : (
        <ul className="grid fundraiser-tiles" role="list">
          {list.map((fundraiser) => (
            <li key={fundraiser.id}>
              <FundraiserTile
                fundraiser={fundraiser}
                headingLevel={2}
                to={`/fundraisers/user/${fundraiser.id}`}
                hoverText="Manage"
              >
                <span className={`chip ${fundraiser.status === 'PUBLISHED' ? 'chip-success' : 'chip-warning'}`}>
                  {fundraiser.status === 'PUBLISHED' ? 'Published' : 'Draft'}
                </span>
              </FundraiserTile>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
