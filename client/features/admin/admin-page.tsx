import { useParams } from 'react-router';
import { usePageTitle } from '../../lib/site';
import { TabLinks } from '../../ui/tab-links';
import { FeaturedCharitiesAdmin } from './featured-charities';

// Spec part 2 section 2 (Admin area): /admin and any sub-path show the tabs, the one named by the
// last path segment selected (Transactions otherwise). Featured charities is ours: the spec has
// the home page show 10 of them, and admins choose which (DESIGN.md: the directory is our own).
const tabs = [
  { segment: 'transactions', label: 'Transactions', empty: 'No transactions!' },
  { segment: 'disbursements', label: 'Disbursements', empty: 'No disbursements!' },
  { segment: 'featured-fundraisers', label: 'Featured fundraisers', empty: 'No projects!' },
  { segment: 'featured-charities', label: 'Featured charities', empty: undefined },
] as const;

export function AdminPage() {
  usePageTitle('Admin dashboard');
  const lastSegment = (useParams()['*'] ?? '').split('/').filter(Boolean).at(-1);
  const current = tabs.find((candidate) => candidate.segment === lastSegment) ?? tabs[0];
  return (
    <div className="page stack">
      <div className="page-heading">
        <h1>Admin dashboard</h1>
        {/* Footer signups are stored here (DESIGN.md section 2); the export belongs to no tab. */}
        <a className="button button-secondary" href="/api/admin/mailing-list.csv" download>
          Download mailing list (CSV)
        </a>
      </div>
      <TabLinks
        label="Admin sections"
        tabs={tabs.map((tab) => ({ to: `/admin/${tab.segment}`, label: tab.label }))}
        current={`/admin/${current.segment}`}
      />
      <section aria-label={current.label}>
        {current.segment === 'featured-charities' ? (
          <FeaturedCharitiesAdmin />
        ) : (
          <p className="empty-state">{current.empty}</p>
        )}
      </section>
    </div>
  );
}
