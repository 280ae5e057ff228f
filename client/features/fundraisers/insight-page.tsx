import { useQuery } from '@tanstack/react-query';
import { generatePath, Link, useParams } from 'react-router';
import type { FundraiserInsight } from '../../../shared/answers/insight';
import { pagePaths } from '../../../shared/routes';
import { ApiError } from '../../api/errors';
import { isNotFound } from '../../api/http';
import { usePageTitle } from '../../lib/site';
import {
  DonationsPanel,
  DownloadsPanel,
  FormatsPanel,
  GoalPanel,
  InsightTotals,
  ListeningPanel,
  MonthlyNote,
  periodOf,
  RaisedPanel,
  type InsightScope,
  SourcesPanel,
  ViewsPanel,
} from '../../ui/insight/insight-charts';
import { InsightFailure } from '../../ui/insight/insight-failure';
import { PeriodPicker, useInsightPeriod } from '../../ui/insight/period-picker';
import { Spinner } from '../../ui/spinner';
import { FundraiserNotFound } from './fundraiser-not-found';
import { fundraiserInsightQueryOptions } from './insight-api';
import './insight-page.css';

// A fundraiser's dashboard (issue 29), /fundraisers/user/{id}/insight, for its owner and admins:
// what it raised day by day and against its goal, who listened and downloaded, who came and from
// where, over 7, 30 or 90 days or all time. Each chart reads as a table and downloads as a CSV.

export function FundraiserInsightPage() {
  const { projectId = '' } = useParams();
  const valid = /^\d+$/.test(projectId);
  const [days, setDays] = useInsightPeriod();
  const query = useQuery({ ...fundraiserInsightQueryOptions(Number(projectId), days), enabled: valid });
  // Someone else's fundraiser (403) is not theirs to see: the manage page says the same of it.
  const notFound = !valid || isNotFound(query.error) || (query.error instanceof ApiError && query.error.status === 403);
  const title = query.data ? `Insight: ${query.data.fundraiser.name}` : 'Insight';
  usePageTitle(notFound ? 'Fundraiser not found' : title);
  if (notFound) return <FundraiserNotFound forManaging />;
  return (
    <div className="page stack insight-page">
      <p className="manage-back">
        <Link to={generatePath(pagePaths.manageFundraiser, { projectId })}>
          <span aria-hidden="true">← </span>Manage fundraiser
        </Link>
      </p>
      <div className="insight-page-heading">
        <h1>{title}</h1>
        {query.data && <PeriodLine insight={query.data} />}
      </div>
      <PeriodPicker days={days} onChange={setDays} />
      {query.isPending ? (
        <Spinner label="Loading insight" />
      ) : query.isError ? (
        <InsightFailure error={query.error} retry={query.refetch} />
      ) : (
        <FundraiserCharts insight={query.data} busy={query.isPlaceholderData} />
      )}
    </div>
  );
}

function PeriodLine({ insight }: { insight: FundraiserInsight }) {
  return (
    <p className="muted">
      {periodOf(insight).text}. Days are calendar days in {insight.timeZone.replace(/_/g, ' ')} time.
    </p>
  );
}

function FundraiserCharts({ insight, busy }: { insight: FundraiserInsight; busy: boolean }) {
  const scope: InsightScope = { owner: insight.fundraiser.slug, headingLevel: 2 };
  return (
    // Busy while another period's figures are on their way: the charts stay, the page says so.
    <div className="stack insight-charts" aria-busy={busy}>
      <section aria-label="Totals for the period">
        <InsightTotals insight={insight} />
      </section>
      <MonthlyNote insight={insight} />
      <div className="insight-grid">
        <RaisedPanel insight={insight} scope={scope} />
        <GoalPanel insight={insight} scope={scope} goalCents={insight.fundraiser.goalCents} />
        <DonationsPanel insight={insight} scope={scope} />
        <ListeningPanel insight={insight} scope={scope} />
        <DownloadsPanel insight={insight} scope={scope} />
        <FormatsPanel insight={insight} scope={scope} />
        <ViewsPanel insight={insight} scope={scope} />
        <SourcesPanel insight={insight} scope={scope} />
      </div>
    </div>
  );
}
