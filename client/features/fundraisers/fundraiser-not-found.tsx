import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

/** A missing fundraiser, or a draft this visitor may not see (the server answers 404 for both). */
export function FundraiserNotFound({ forManaging = false }: { forManaging?: boolean }) {
  usePageTitle('Fundraiser not found');
  return (
    <div className="page narrow center stack">
      <h1>Fundraiser not found</h1>
      <p>
        {forManaging
          ? "We couldn't find this fundraiser. It may have been deleted, or it may belong to another account."
          : "We couldn't find this fundraiser. The link may be mistyped, or the fundraiser may have been removed."}
      </p>
      <p className="actions">
        <Link className="button button-primary" to="/browse">
          Browse fundraisers
        </Link>
        {forManaging && (
          <Link className="button button-secondary" to="/fundraisers/user">
            Your fundraisers
          </Link>
        )}
      </p>
    </div>
  );
}
