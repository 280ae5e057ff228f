import { lazy, Suspense, useState } from 'react';
import { Route, Routes, useLocation, useParams } from 'react-router';
import { usePageTitle } from '../../lib/site';
import { TabLinks } from '../../ui/tab-links';
import { DisbursementCompletePage } from './disbursement-complete-page';
import { DisbursementsAdmin } from './disbursements';
import { FeaturedCharitiesAdmin } from './featured-charities';
import { FeaturedFundraisersAdmin } from './featured-fundraisers';
import { ManualDisbursementPage } from './manual-disbursement-page';
import { ReconciliationAdmin } from './reconciliation';
import { TransactionsAdmin } from './transactions';
import { NetworkLink } from '../../ui/needs-network';
import { Spinner } from '../../ui/spinner';

// Spec part 2 section 2 (Admin area): /admin and any sub-path show the tabs, the one named by the
// last path segment selected (Transactions otherwise); /admin/disbursements/new is the manual
// disbursement form and /admin/disbursement-complete the giving site's return page. Featured
// charities is ours: the spec has the home page show 10 of them, and admins choose which
// (DESIGN.md: the directory is our own). RequireAdmin (the router) sends non-admins away.
const tabs = [
  { segment: 'transactions', label: 'Transactions' },
  { segment: 'disbursements', label: 'Disbursements' },
  { segment: 'featured-fundraisers', label: 'Featured fundraisers' },
  { segment: 'featured-charities', label: 'Featured charities' },
  // Issue 23: the money journal against the payment processor's balance.
  { segment: 'reconciliation', label: 'Reconciliation' },
  // Issue 29: the site's days as charts.
  { segment: 'insight', label: 'Insight' },
] as const;

// The charts' library (uPlot) loads with this tab only, not with the admin page.
const InsightAdmin = lazy(() => import('./insight-admin').then((m) => ({ default: m.InsightAdmin })));

export function AdminPage() {
  return (
    <Routes>
      <Route path="disbursements/new" element={<ManualDisbursementPage />} />
      <Route path="disbursement-complete" element={<DisbursementCompletePage />} />
      <Route path="*" element={<AdminTabs />} />
    </Routes>
  );
}

function AdminTabs() {
  usePageTitle('Admin dashboard');
  const lastSegment = (useParams()['*'] ?? '').split('/').filter(Boolean).at(-1);
  const current = tabs.find((candidate) => candidate.segment === lastSegment) ?? tabs[0];
  // The Insight tab's period (`?days=`) is kept for a return to it from another tab.
  const { search } = useLocation();
  const [insightSearch, setInsightSearch] = useState('');
  if (current.segment === 'insight' && search !== insightSearch) setInsightSearch(search);
  const tabPath = (segment: string) => `/admin/${segment}${segment === 'insight' ? insightSearch : ''}`;
  return (
    <div className="page stack admin-page">
      <div className="page-heading">
        <h1>Admin dashboard</h1>
        {/* Footer signups are stored here (DESIGN.md section 2); the export belongs to no tab. */}
        <NetworkLink
          action="download the list"
          className="button button-secondary"
          href="/api/admin/mailing-list.csv"
          download
        >
          Download mailing list (CSV)
        </NetworkLink>
      </div>
      <TabLinks
        label="Admin sections"
        tabs={tabs.map((tab) => ({ to: tabPath(tab.segment), label: tab.label }))}
        current={tabPath(current.segment)}
      />
      <section aria-label={current.label}>
        {current.segment === 'transactions' && <TransactionsAdmin />}
        {current.segment === 'disbursements' && <DisbursementsAdmin />}
        {current.segment === 'featured-fundraisers' && <FeaturedFundraisersAdmin />}
        {current.segment === 'featured-charities' && <FeaturedCharitiesAdmin />}
        {current.segment === 'reconciliation' && <ReconciliationAdmin />}
        {current.segment === 'insight' && (
          <Suspense fallback={<Spinner label="Loading insight" />}>
            <InsightAdmin />
          </Suspense>
        )}
      </section>
    </div>
  );
}
