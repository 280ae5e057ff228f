import { useMemo } from 'react';
import type { FundraiserInsight, InsightDay } from '../../../shared/answers/insight';
import { downloadFormats, isDownloadFormat } from '../../../shared/download-formats';
import { formatCount } from '../../../shared/format-count';
import { formatCents } from '../../../shared/money';
import { useSite } from '../../lib/site';
import { formatDay, formatPeriod, runningTotals } from './insight-format';
import { BarList, InsightPanel } from './insight-panel';
import { csvFileName, type InsightTable } from './insight-table';
import { type ChartSeries, TimeChart } from './time-chart';

// The charts a fundraiser's dashboard and the admin's Insight tab share (issue 29): the same
// answer's days, sources and formats, for one fundraiser or the whole site.

/** What both answers hold (shared/answers/insight.ts). */
export type InsightPeriod = Pick<
  FundraiserInsight,
  'timeZone' | 'days' | 'sources' | 'formats' | 'monthlyBefore' | 'raisedBeforeCents'
>;

/** Whose figures they are (a slug, or the site's name: the CSV files' names) and the heading level. */
export type InsightScope = { owner: string; headingLevel: 2 | 3 };

export const chartColors = {
  primary: '#4c2a85',
  accent: '#c2411f',
  green: '#1f7a4d',
  blue: '#1f5f9e',
  muted: '#6b6480',
};

type DailyField = Exclude<keyof InsightDay, 'date'>;

/** The period's first and last day, and how to say them. */
export function periodOf(insight: InsightPeriod) {
  const first = insight.days[0]?.date ?? '';
  const last = insight.days.at(-1)?.date ?? first;
  return { first, last, text: first ? formatPeriod(first, last) : '' };
}

const sumOf = (days: readonly InsightDay[], field: DailyField) => days.reduce((sum, day) => sum + day[field], 0);

type DailyPanelProps = {
  insight: InsightPeriod;
  scope: InsightScope;
  title: string;
  /** The CSV's name for it: "raised", "listening". */
  what: string;
  unit: 'money' | 'count';
  fields: readonly { key: DailyField; label: string; color: string }[];
  zeros: string;
  footnote?: string;
};

/** One or two of each day's figures: bars for one, lines for two. */
export function DailyPanel({ insight, scope, title, what, unit, fields, zeros, footnote }: DailyPanelProps) {
  const { first, last, text } = periodOf(insight);
  const format = unit === 'money' ? formatCents : formatCount;
  const chart = useMemo(() => {
    const dates = insight.days.map((day) => day.date);
    const series = fields.map((field): ChartSeries => ({
      label: field.label,
      values: insight.days.map((day) => day[field.key]),
      color: field.color,
      style: fields.length === 1 ? 'bars' : 'line',
      summary: 'total',
    }));
    const table: InsightTable = {
      columns: [{ label: 'Date', unit: 'date' }, ...fields.map((field) => ({ label: field.label, unit }))],
      rows: insight.days.map((day) => [day.date, ...fields.map((field) => day[field.key])]),
    };
    return { dates, series, table };
  }, [insight, fields, unit]);
  const totals = fields.map((field) => `${format(sumOf(insight.days, field.key))} ${field.label.toLowerCase()}`);
  const label = `${title}, ${text}: ${totals.join(' and ')} in total`;
  return (
    <InsightPanel
      title={title}
      headingLevel={scope.headingLevel}
      table={chart.table}
      caption={`${title}, ${text}`}
      fileName={csvFileName(scope.owner, what, first, last)}
      zeros={zeros}
      footnote={footnote}
    >
      <TimeChart dates={chart.dates} series={chart.series} unit={unit} label={label} />
    </InsightPanel>
  );
}

const raisedField = [{ key: 'raisedCents', label: 'Raised', color: chartColors.primary }] as const;
const donationsField = [{ key: 'donations', label: 'Donations', color: chartColors.green }] as const;
const listeningFields = [
  { key: 'previewPlays', label: 'Preview plays', color: chartColors.primary },
  { key: 'streams', label: 'Full streams', color: chartColors.accent },
] as const;
const downloadsField = [{ key: 'downloads', label: 'Downloads', color: chartColors.blue }] as const;

export function RaisedPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  return (
    <DailyPanel
      insight={insight}
      scope={scope}
      title="Raised per day"
      what="raised"
      unit="money"
      fields={raisedField}
      zeros="No donations in this period yet."
    />
  );
}

export function DonationsPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  return (
    <DailyPanel
      insight={insight}
      scope={scope}
      title="Donations per day"
      what="donations"
      unit="count"
      fields={donationsField}
      zeros="No donations in this period yet."
    />
  );
}

export function ListeningPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  return (
    <DailyPanel
      insight={insight}
      scope={scope}
      title="Listening"
      what="listening"
      unit="count"
      fields={listeningFields}
      zeros="No plays in this period yet."
      // Counted on the server as it starts sending (issue 29): it never sees a cached replay.
      footnote="A preview is counted when the server starts sending it, so replays a browser plays from its own cache are not counted again."
    />
  );
}

export function DownloadsPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  return (
    <DailyPanel
      insight={insight}
      scope={scope}
      title="Downloads per day"
      what="downloads"
      unit="count"
      fields={downloadsField}
      zeros="No downloads in this period yet."
    />
  );
}

/** Page views beside the embedded player's; site-wide, the page views are every page's. */
export function ViewsPanel({
  insight,
  scope,
  pageViewsLabel = 'Page views',
}: {
  insight: InsightPeriod;
  scope: InsightScope;
  pageViewsLabel?: string;
}) {
  const fields = useMemo(
    () =>
      [
        { key: 'pageViews', label: pageViewsLabel, color: chartColors.primary },
        { key: 'embedViews', label: 'Embed views', color: chartColors.accent },
      ] as const,
    [pageViewsLabel],
  );
  return (
    <DailyPanel
      insight={insight}
      scope={scope}
      title="Views"
      what="views"
      unit="count"
      fields={fields}
      zeros="No views in this period yet."
    />
  );
}

/** The cumulative line against the goal, from what was raised before the period began. */
export function GoalPanel({
  insight,
  scope,
  goalCents,
}: {
  insight: InsightPeriod;
  scope: InsightScope;
  /** None: the line alone. */
  goalCents: number | null;
}) {
  const { first, last, text } = periodOf(insight);
  const chart = useMemo(() => {
    const running = runningTotals(
      insight.raisedBeforeCents,
      insight.days.map((day) => day.raisedCents),
    );
    const series: ChartSeries[] = [
      { label: 'Raised so far', values: running, color: chartColors.primary, style: 'line', summary: 'last' },
    ];
    if (goalCents) {
      series.push({
        label: 'Goal',
        values: running.map(() => goalCents),
        color: chartColors.muted,
        style: 'level',
        summary: 'last',
      });
    }
    const table: InsightTable = {
      columns: [
        { label: 'Date', unit: 'date' },
        { label: 'Raised so far', unit: 'money' },
      ],
      rows: insight.days.map((day, index) => [day.date, running[index]!]),
    };
    return {
      dates: insight.days.map((day) => day.date),
      series,
      table,
      reached: running.at(-1) ?? insight.raisedBeforeCents,
    };
  }, [insight, goalCents]);
  const goal = goalCents ? ` of the ${formatCents(goalCents)} goal` : '';
  return (
    <InsightPanel
      title={goalCents ? 'Raised toward the goal' : 'Raised so far'}
      headingLevel={scope.headingLevel}
      table={chart.table}
      caption={`Raised so far${goalCents ? ` toward the ${formatCents(goalCents)} goal` : ''}, ${text}`}
      fileName={csvFileName(scope.owner, 'raised-so-far', first, last)}
    >
      <TimeChart
        dates={chart.dates}
        series={chart.series}
        unit="money"
        label={`Raised so far, ${text}: ${formatCents(chart.reached)}${goal} by ${formatDay(last)}`}
      />
    </InsightPanel>
  );
}

/** A format id as the download chooser names it; one this page does not know, as it is. */
const formatLabel = (id: string) => (isDownloadFormat(id) ? downloadFormats[id].label : id);

export function FormatsPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  const { first, last, text } = periodOf(insight);
  const items = insight.formats.map((format) => ({ label: formatLabel(format.id), value: format.downloads }));
  return (
    <InsightPanel
      title="Downloads by format"
      headingLevel={scope.headingLevel}
      table={{
        columns: [
          { label: 'Format', unit: 'text' },
          { label: 'Downloads', unit: 'count' },
        ],
        rows: items.map((item) => [item.label, item.value]),
      }}
      caption={`Downloads by format, ${text}`}
      fileName={csvFileName(scope.owner, 'download-formats', first, last)}
      empty="No downloads in this period yet."
    >
      <BarList items={items} format={formatCount} />
    </InsightPanel>
  );
}

/** Where visits came from: another site's host as it is, and the three kinds of no host. */
export function SourcesPanel({ insight, scope }: { insight: InsightPeriod; scope: InsightScope }) {
  const { siteName } = useSite();
  const { first, last, text } = periodOf(insight);
  const named: Record<string, string> = {
    embed: 'Embedded player',
    site: `Elsewhere on ${siteName}`,
    direct: 'Direct or unknown',
  };
  const items = insight.sources.map((source) => ({
    label: named[source.referrer] ?? source.referrer,
    value: source.visits,
  }));
  return (
    <InsightPanel
      title="Where visits came from"
      headingLevel={scope.headingLevel}
      table={{
        columns: [
          { label: 'Source', unit: 'text' },
          { label: 'Visits', unit: 'count' },
        ],
        rows: items.map((item) => [item.label, item.value]),
      }}
      caption={`Where visits came from, ${text}`}
      fileName={csvFileName(scope.owner, 'sources', first, last)}
      empty="No visits counted in this period yet."
    >
      <BarList items={items} format={formatCount} />
    </InsightPanel>
  );
}

/** The period's totals in a row of figures. */
export function InsightTotals({
  insight,
  pageViewsLabel = 'Page views',
}: {
  insight: InsightPeriod;
  pageViewsLabel?: string;
}) {
  const { days } = insight;
  const figures = [
    { term: 'Raised', value: formatCents(sumOf(days, 'raisedCents')) },
    { term: 'Donations', value: formatCount(sumOf(days, 'donations')) },
    { term: 'Preview plays', value: formatCount(sumOf(days, 'previewPlays')) },
    { term: 'Full streams', value: formatCount(sumOf(days, 'streams')) },
    { term: 'Downloads', value: formatCount(sumOf(days, 'downloads')) },
    { term: pageViewsLabel, value: formatCount(sumOf(days, 'pageViews')) },
    { term: 'Embed views', value: formatCount(sumOf(days, 'embedViews')) },
  ];
  return (
    <dl className="insight-totals">
      {figures.map((figure) => (
        <div key={figure.term}>
          <dt>{figure.term}</dt>
          <dd>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Counts older than `monthlyBefore` are whole months (npm run cli -- prune-insight): each on its
 * month's first day, and a month that began before the period left out of it. Money is kept by day.
 */
export function MonthlyNote({ insight }: { insight: InsightPeriod }) {
  if (!insight.monthlyBefore) return null;
  return (
    <p className="insight-note">
      Counts before {formatDay(insight.monthlyBefore)} are kept by month: each month&rsquo;s are shown on its first day,
      and a month that began before this period is left out. Money is kept day by day.
    </p>
  );
}
