import { useQuery } from '@tanstack/react-query';
import { Fragment, useId } from 'react';
import { generatePath, Link } from 'react-router';
import { formatCount } from '../../../shared/format-count';
import { formatCents } from '../../../shared/money';
import type { FundraiserReach } from '../../../shared/answers/fundraisers';
import { pagePaths } from '../../../shared/routes';
import { fundraiserReachQueryOptions } from '../../api/fundraisers';
import { Spinner } from '../../ui/spinner';

// How far a fundraiser travelled (issue 28): its completed shares and what its embedded player
// brought, for its owner on the manage page. Counts only: the server keeps nothing of the visitor.

/** "1 view", "2,048 views". */
function counted(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

function reachLines(reach: FundraiserReach): { term: string; value: string }[] {
  return [
    {
      term: 'Shared',
      value: reach.shareCount === 0 ? 'Not yet' : counted(reach.shareCount, 'time', 'times'),
    },
    {
      term: 'Embedded player',
      value: `${counted(reach.embedViews, 'view', 'views')} · ${counted(reach.embedPlays, 'preview play', 'preview plays')}`,
    },
    {
      term: 'Donations from embeds',
      value:
        reach.embedDonations === 0
          ? 'None yet'
          : `${counted(reach.embedDonations, 'donation', 'donations')} (${formatCents(reach.embedRaisedCents)})`,
    },
  ];
}

export function ReachPanel({ fundraiserId }: { fundraiserId: number }) {
  const headingId = useId();
  const reach = useQuery(fundraiserReachQueryOptions(fundraiserId));
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <div className="reach-head">
        <h2 id={headingId}>Reach</h2>
        {/* Issue 29: the same figures and more, day by day, on the fundraiser's dashboard. */}
        <Link
          className="button button-secondary"
          to={generatePath(pagePaths.fundraiserInsight, { projectId: String(fundraiserId) })}
        >
          See insight
        </Link>
      </div>
      {reach.isPending ? (
        <Spinner label="Loading reach" />
      ) : reach.isError ? (
        // A figure for curiosity, not for work: a failure is said quietly, without alarm.
        <p className="muted">The reach figures could not be loaded just now.</p>
      ) : (
        <>
          <dl className="details reach-list">
            {reachLines(reach.data).map(({ term, value }) => (
              <Fragment key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
          <p className="field-hint">
            Counted without cookies or personal data. A share counts once per visitor each hour.
          </p>
        </>
      )}
    </section>
  );
}
