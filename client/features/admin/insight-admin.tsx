import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { generatePath } from 'react-router';
import type { AdminInsight } from '../../../shared/answers/insight';
import { formatCents } from '../../../shared/money';
import { pagePaths } from '../../../shared/routes';
import { useSite } from '../../lib/site';
import {
  chartColors,
  DonationsPanel,
  DownloadsPanel,
  FormatsPanel,
  InsightTotals,
  ListeningPanel,
  MonthlyNote,
  periodOf,
  RaisedPanel,
  type InsightScope,
  SourcesPanel,
  ViewsPanel,
} from '../../ui/insight/insight-charts';
import { daySeconds, formatDayOfYear } from '../../ui/insight/insight-format';
import { InsightPanel } from '../../ui/insight/insight-panel';
import { csvFileName, type InsightTable } from '../../ui/insight/insight-table';
import { InsightFailure } from '../../ui/insight/insight-failure';
import { PeriodPicker, useInsightPeriod } from '../../ui/insight/period-picker';
import { type ChartSeries, TimeChart } from '../../ui/insight/time-chart';
import { Spinner } from '../../ui/spinner';
import { adminInsightQueryOptions } from './insight-admin-api';
import './admin-money.css';

// The admin's Insight tab (issue 29): the fundraisers' charts for the whole site, and what only an
// admin sees — the fundraisers that raised most, money in and out by week, the site's pages and
// events. Loaded with the tab (admin-page.tsx), so uPlot comes only when it shows.

export function InsightAdmin() {
  const [days, setDays] = useInsightPeriod();
  const query = useQuery(adminInsightQueryOptions(days));
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <h2>Insight</h2>
      </div>
      <p className="admin-muted">
        The whole site, day by day in its time zone: counts and sums only, with no donor, listener or visitor named.
      </p>
      <PeriodPicker days={days} onChange={setDays} />
      {query.isPending ? (
        <Spinner label="Loading insight" />
      ) : query.isError ? (
        <InsightFailure error={query.error} retry={query.refetch} />
      ) : (
        <AdminCharts insight={query.data} busy={query.isPlaceholderData} />
      )}
    </div>
  );
}

function AdminCharts({ insight, busy }: { insight: AdminInsight; busy: boolean }) {
  const { siteName } = useSite();
  const scope: InsightScope = { owner: siteName, headingLevel: 3 };
  return (
    <div className="stack insight-charts" aria-busy={busy}>
      <p className="admin-muted">
        {periodOf(insight).text}, in {insight.timeZone.replace(/_/g, ' ')} time.
      </p>
      <section aria-label="Totals for the period">
        <InsightTotals insight={insight} />
      </section>
      <MonthlyNote insight={insight} />
      <div className="insight-grid">
        <TopFundraisersPanel insight={insight} scope={scope} />
        <WeeksPanel insight={insight} scope={scope} />
        <RaisedPanel insight={insight} scope={scope} />
        <DonationsPanel insight={insight} scope={scope} />
        <ListeningPanel insight={insight} scope={scope} />
        <ViewsPanel insight={insight} scope={scope} pageViewsLabel="Page views (every page)" />
        <DownloadsPanel insight={insight} scope={scope} />
        <FormatsPanel insight={insight} scope={scope} />
        <SourcesPanel insight={insight} scope={scope} />
        <PagesPanel insight={insight} scope={scope} />
        <EventsPanel insight={insight} scope={scope} />
      </div>
    </div>
  );
}

type PanelProps = { insight: AdminInsight; scope: InsightScope };

function TopFundraisersPanel({ insight, scope }: PanelProps) {
  const { first, last, text } = periodOf(insight);
  return (
    <InsightPanel
      className="insight-wide"
      title="Top fundraisers"
      headingLevel={scope.headingLevel}
      table={{
        columns: [
          { label: 'Fundraiser', unit: 'text' },
          { label: 'Artist', unit: 'text' },
          { label: 'Raised', unit: 'money' },
          { label: 'Donations', unit: 'count' },
        ],
        rows: insight.topFundraisers.map((fundraiser) => [
          // No page to link to (a draft, or deleted since): its name alone.
          fundraiser.slug === null
            ? fundraiser.name
            : {
                text: fundraiser.name,
                href: generatePath(pagePaths.fundraiser, { projectSlugOrId: fundraiser.slug }),
              },
          fundraiser.artistName,
          fundraiser.raisedCents,
          fundraiser.donations,
        ]),
      }}
      caption={`The fundraisers that raised most, ${text}`}
      fileName={csvFileName(scope.owner, 'top-fundraisers', first, last)}
      empty="No donations in this period yet."
    />
  );
}

const DAY_SECONDS = 24 * 60 * 60;

const weekFields = [
  { key: 'raisedCents', label: 'Raised for charities', color: chartColors.primary },
  { key: 'tipsCents', label: 'Tips kept', color: chartColors.green },
  { key: 'paidOutCents', label: 'Paid out to charities', color: chartColors.accent },
] as const;

/**
 * Money in and out by week (Monday to Sunday), as bars side by side: what charities were given, what
 * the site kept, what was paid out. A week holds only the period's days, so the first and the last
 * may be partial.
 */
function WeeksPanel({ insight, scope }: PanelProps) {
  const { weeks } = insight;
  const period = periodOf(insight);
  const chart = useMemo(() => {
    const series = weekFields.map((field): ChartSeries => ({
      label: field.label,
      values: weeks.map((week) => week[field.key]),
      color: field.color,
      style: 'bars',
      summary: 'total',
    }));
    const table: InsightTable = {
      columns: [
        { label: 'Week of', unit: 'date' },
        ...weekFields.map((field) => ({ label: field.label, unit: 'money' as const })),
      ],
      rows: weeks.map((week) => [week.weekStart, ...weekFields.map((field) => week[field.key])]),
    };
    return { dates: weeks.map((week) => week.weekStart), series, table };
  }, [weeks]);
  const firstWeek = weeks[0]?.weekStart ?? '';
  const lastWeek = weeks.at(-1)?.weekStart ?? firstWeek;
  const text = `Money per week (Monday to Sunday), ${period.text}`;
  // A week holds the period's days only: the first may have begun before it, the last not ended.
  const firstPartial = firstWeek !== '' && firstWeek < period.first;
  const lastPartial = lastWeek !== '' && daySeconds(lastWeek) + 6 * DAY_SECONDS > daySeconds(period.last);
  const partial = [
    firstPartial ? `the first week (from ${formatDayOfYear(period.first)})` : '',
    lastPartial ? `the last${firstPartial ? '' : ' week'} (to ${formatDayOfYear(period.last)})` : '',
  ].filter(Boolean);
  const totals = weekFields.map(
    (field) => `${formatCents(weeks.reduce((sum, week) => sum + week[field.key], 0))} ${field.label.toLowerCase()}`,
  );
  return (
    <InsightPanel
      className="insight-wide"
      title="Money per week"
      headingLevel={scope.headingLevel}
      table={chart.table}
      caption={text}
      fileName={csvFileName(scope.owner, 'money-per-week', period.first, period.last)}
      empty="No weeks in this period."
      zeros="No money moved in this period yet."
      footnote={
        partial.length > 0
          ? `Weeks run Monday to Sunday and count only this period's days, so ${partial.join(' and ')} ${partial.length > 1 ? 'are' : 'is'} partial.`
          : undefined
      }
    >
      <TimeChart
        dates={chart.dates}
        series={chart.series}
        unit="money"
        step="week"
        label={`${text}: ${totals.join(', ')}`}
        span={period.text}
      />
    </InsightPanel>
  );
}

function PagesPanel({ insight, scope }: PanelProps) {
  const { first, last, text } = periodOf(insight);
  return (
    <InsightPanel
      title="Pages"
      headingLevel={scope.headingLevel}
      table={{
        columns: [
          { label: 'Page', unit: 'text' },
          { label: 'Views', unit: 'count' },
        ],
        rows: insight.pages.map((page) => [page.path, page.views]),
      }}
      caption={`Page views by page, ${text}`}
      fileName={csvFileName(scope.owner, 'pages', first, last)}
      empty="No page views in this period yet."
    />
  );
}

function EventsPanel({ insight, scope }: PanelProps) {
  const { first, last, text } = periodOf(insight);
  return (
    <InsightPanel
      title="Events"
      headingLevel={scope.headingLevel}
      table={{
        columns: [
          { label: 'Event', unit: 'text' },
          { label: 'Count', unit: 'count' },
        ],
        rows: insight.events.map((event) => [event.name, event.count]),
      }}
      caption={`Events counted, ${text}`}
      fileName={csvFileName(scope.owner, 'events', first, last)}
      empty="No events in this period yet."
    />
  );
}
