import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { FEATURED_CHARITY_COUNT } from '../../../shared/constants';
import { featuredCharitiesQueryOptions } from '../../api/fundraisers';
import { Alert } from '../../ui/alert';
import { CharityLogo, safeWebsite } from '../../ui/charity-logo';
import { Spinner } from '../../ui/spinner';
import { LoadFailure } from '../../ui/offline-notice';

/** The home page's logo list of featured charities, in the admins' order (spec part 2 section 9: 10). */
export function FeaturedCharities() {
  const headingId = useId();
  const charities = useQuery(featuredCharitiesQueryOptions());
  const list = charities.data?.nonprofits.slice(0, FEATURED_CHARITY_COUNT) ?? [];

  return (
    <section className="section stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Featured charities</h2>
      <p className="muted">
        Every fundraiser supports a registered US 501(c)(3) charity of the artist's choosing. Here are a few of them.
      </p>
      {charities.isPending ? (
        <Spinner label="Loading featured charities" />
      ) : charities.isError ? (
        <LoadFailure error={charities.error} retry={charities.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      ) : list.length === 0 ? (
        <p className="empty-state">No featured charities yet.</p>
      ) : (
        <ul className="home-charities" role="list">
          {list.map((charity) => {
            const website = safeWebsite(charity.websiteUrl);
            return (
              <li key={charity.ein} className="card home-charity">
                {website ? (
                  <a className="home-charity-link" href={website} target="_blank" rel="noopener noreferrer">
                    <CharityLogo charity={charity} />
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                ) : (
                  <CharityLogo charity={charity} />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
