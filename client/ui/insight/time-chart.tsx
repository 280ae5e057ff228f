import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from '../../../shared/format-count';
import { formatCents } from '../../../shared/money';
import {
  axisCount,
  axisDateLabels,
  axisDateSplits,
  axisMoney,
  axisTop,
  daySeconds,
  formatDay,
  formatPeriod,
} from './insight-format';

// A chart of days (issue 29) drawn by uPlot (https://github.com/leeoniya/uPlot, ~50 KB): this
// module is imported only by the insight pages, which load lazily, so uPlot and its stylesheet
// never weigh on the landing pages (scripts/bundle-budget.mjs). The x axis is calendar days of
// the site's zone, each placed at its UTC midnight and read back in UTC (tzDate), so the axis says
// the same day to every viewer. It is as wide as its box, redrawn when the box changes; below it
// a legend of HTML (not uPlot's table) wraps on a phone and reads each day as the pointer moves.
// Bars of several series stand side by side in each day's (or week's) column.

export type ChartSeries = {
  label: string;
  values: readonly number[];
  /** A colour the legend's swatch shares; dark enough to see on white. */
  color: string;
  /**
   * Bars for one figure a day (or a few a week, side by side), lines where daily figures share the
   * chart, a dashed line for a level (a goal).
   */
  style: 'bars' | 'line' | 'level';
  /** What the legend says away from any day: the period's sum, or its last value (a running total, a level). */
  summary: 'total' | 'last';
};

type TimeChartProps = {
  /** Calendar days ("2026-11-01"), one per value of each series. */
  dates: readonly string[];
  series: readonly ChartSeries[];
  unit: 'money' | 'count';
  /** A row per day, or per week (from its first day, a Monday). */
  step?: 'day' | 'week';
  /** The chart in a sentence, for a screen reader (its table holds every figure). */
  label: string;
  /** What the legend says away from any day: the days the figures cover (the first to the last date). */
  span?: string;
};

const DAY = 24 * 60 * 60;
const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const AXIS_TEXT = '#5d5670';
const GRID = '#ebe6f2';
/** Day, week and month steps for the x axis: never hours, since a value is a whole day. */
const X_INCRS = [1, 2, 3, 7, 14, 30, 60, 91, 182, 365, 730, 1825].map((days) => days * DAY);
/** Steps of whole weeks for a chart of weeks, so each tick is a Monday. */
const WEEK_INCRS = [1, 2, 3, 4, 6, 8, 13, 26, 52, 104, 260].map((weeks) => weeks * 7 * DAY);
/** The air between two x labels. */
const LABEL_GAP = 28;
/** A bar's width in CSS pixels: at least this, so 90 days on a phone stay visible, and at most that. */
const BAR_MIN = 3;
const BAR_MAX = 40;
/** The part of a day's (or week's) column its bars take; the rest is the air between columns. */
const BAR_SHARE = 0.7;
/** Round steps for the y axis, 1-2-2.5-5 of each power of ten. */
const Y_INCRS = Array.from({ length: 12 }, (_, power) => [1, 2, 2.5, 5].map((step) => step * 10 ** power))
  .flat()
  .filter((step) => Number.isInteger(step));

let measuring: CanvasRenderingContext2D | null | undefined;
/** The pixels the widest of an axis's labels takes in the axis font. */
function labelWidth(labels: readonly string[]): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return Math.max(0, ...labels.map((label) => label.length * 7));
  measuring.font = FONT;
  return Math.max(0, ...labels.map((label) => measuring!.measureText(label).width));
}

const chartHeight = (width: number) => (width < 480 ? 220 : 280);

/** A week's tick says so: "Week of" over "Nov 23" (two short lines fit a phone). */
const weekLabel = (split: number) => `Week of\n${axisDateLabels([split], DAY)[0]}`;

/** The widest a tick's label is ("Nov 28", "May 30"; a week's "Week of" over one), for the space between ticks. */
const widestLabel: Partial<Record<'day' | 'week', number>> = {};
function widestXLabel(step: 'day' | 'week'): number {
  widestLabel[step] ??= labelWidth([
    ...Array.from({ length: 12 }, (_, month) => axisDateLabels([Date.UTC(2026, month, 28) / 1000], DAY)[0]!),
    ...(step === 'week' ? ['Week of'] : []),
  ]);
  return widestLabel[step];
}

/**
 * The x axis's labels: each tick's, or null where the label would not fit inside the plot (at its
 * left edge it would run under the y axis's lowest label; at its right, off the canvas). The year
 * goes with the first label shown.
 */
function xAxisLabels(plot: uPlot, splits: readonly number[], incr: number, step: 'day' | 'week'): (string | null)[] {
  // The canvas's right edge, from the plot's left.
  const right = plot.width - plot.bbox.left / uPlot.pxRatio;
  const fits = (split: number, text: string) => {
    const half = labelWidth(text.split('\n')) / 2;
    const position = plot.valToPos(split, 'x');
    return position - half >= 0 && position + half <= right;
  };
  if (step === 'week') return splits.map((split) => (fits(split, weekLabel(split)) ? weekLabel(split) : null));
  // Labelled as if all were shown, to find which fit; then again with only those, for the year.
  const shown = axisDateLabels(splits, incr).map((text, index) => fits(splits[index]!, text));
  const labels = axisDateLabels(
    splits.filter((_, index) => shown[index]),
    incr,
  );
  let next = 0;
  return shown.map((fit) => (fit ? labels[next++]! : null));
}

/**
 * Bars for series `slot` of `slots` side by side, centred as a group on each x (a day, or a week's
 * Monday): the group takes BAR_SHARE of the column, each bar at least BAR_MIN pixels wide (bars of a
 * long period on a phone may then touch) and at most BAR_MAX.
 */
function barPaths(slot: number, slots: number, stepSeconds: number): uPlot.Series.PathBuilder {
  const layout = (plot: uPlot) => {
    const { min = 0, max = 1 } = plot.scales.x!;
    const pixelsPerSecond = plot.valToPos(max, 'x') / (max - min);
    const bar = Math.min(BAR_MAX, Math.max(BAR_MIN, (stepSeconds * pixelsPerSecond * BAR_SHARE) / slots));
    const barSeconds = bar / pixelsPerSecond;
    return { barSeconds, offset: -(barSeconds * slots) / 2 + slot * barSeconds };
  };
  return uPlot.paths.bars!({
    radius: 0.2,
    disp: {
      // Each bar's left edge and its width, in the x scale's seconds (unit 1).
      x0: {
        unit: 1,
        values: (plot) => {
          const { offset } = layout(plot);
          return (plot.data[0] as number[]).map((x) => x + offset);
        },
      },
      size: { unit: 1, values: (plot) => [layout(plot).barSeconds] },
    },
  });
}

function plotOptions(
  { dates, series, unit, step = 'day' }: TimeChartProps,
  width: number,
  onHover: (index: number | null) => void,
): uPlot.Options {
  const axisLabel = unit === 'money' ? axisMoney : axisCount;
  const stepSeconds = step === 'week' ? 7 * DAY : DAY;
  const half = stepSeconds / 2;
  const first = daySeconds(dates[0] ?? '1970-01-01');
  const last = daySeconds(dates.at(-1) ?? '1970-01-01');
  const bars = series.filter((one) => one.style === 'bars');
  // Room to the right for the last date's label, centred half a step in from the plot's edge (the
  // plot's width guessed on the small side: the y axis's labels and a little air).
  const rightRoom = (plot: uPlot) => {
    const stepPixels = (plot.width - 100) / Math.max(1, dates.length);
    return Math.max(12, Math.ceil(widestXLabel(step) / 2 - stepPixels / 2) + 2);
  };
  return {
    width,
    height: chartHeight(width),
    legend: { show: false },
    // Room above for the top label's upper half, to the right for the last date's.
    padding: [10, rightRoom, 0, 0],
    // Pointing reads a day in the legend; no drag to zoom, which a finger scrolling would set off.
    cursor: { drag: { x: false, y: false, setScale: false }, y: false, points: { size: 8 } },
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: {
      // Half a step either side, so the first and last bars are whole.
      x: { time: true, range: (_plot, min, max) => [min - half, max + half] },
      // From zero, or below it when a refund took more than a day brought in.
      y: { range: (_plot, min, max) => [min < 0 ? -axisTop(-min, unit) : 0, axisTop(max, unit)] },
    },
    axes: [
      {
        font: FONT,
        stroke: AXIS_TEXT,
        grid: { show: false },
        ticks: { stroke: GRID, size: 4 },
        // The labels' line (two for weeks) and a little air, not uPlot's 50 px.
        size: step === 'week' ? 46 : 30,
        gap: 4,
        // Ticks as far apart as the widest date's label and some air, measured in the axis's font.
        space: () => widestXLabel(step) + LABEL_GAP,
        incrs: step === 'week' ? WEEK_INCRS : X_INCRS,
        splits: (_plot, _axis, _min, _max, incr) => axisDateSplits(first, last, incr, step),
        values: (plot, splits, _axis, _space, incr) => xAxisLabels(plot, splits, incr, step),
      },
      {
        font: FONT,
        stroke: AXIS_TEXT,
        grid: { stroke: GRID, width: 1 },
        ticks: { show: false },
        border: { show: false },
        space: 36,
        incrs: Y_INCRS,
        values: (_plot, splits) => splits.map(axisLabel),
        size: (_plot, labels) => Math.ceil(labelWidth(labels ?? [])) + 16,
      },
    ],
    series: [
      {},
      ...series.map((one): uPlot.Series => ({
        label: one.label,
        stroke: one.color,
        width: one.style === 'bars' ? 0 : 2,
        ...(one.style === 'bars'
          ? { fill: one.color, paths: barPaths(bars.indexOf(one), bars.length, stepSeconds), points: { show: false } }
          : one.style === 'level'
            ? { dash: [6, 4], points: { show: false } }
            : // A dot on each day something happened; a quiet run is the line alone.
              { points: { show: false, size: 6, fill: one.color, filter: () => markedDays(one) } }),
      })),
    ],
    hooks: { setCursor: [(plot) => onHover(plot.cursor.idx ?? null)] },
  };
}

/**
 * The days worth a dot, or null for none: a day's figure that is not zero, a running total where it
 * moved (its first day from zero).
 */
function markedDays({ values, summary }: ChartSeries): number[] | null {
  const indices = values.flatMap((value, index) =>
    value !== (summary === 'last' && index > 0 ? values[index - 1] : 0) ? [index] : [],
  );
  return indices.length > 0 ? indices : null;
}

function plotData({ dates, series }: TimeChartProps): uPlot.AlignedData {
  return [dates.map(daySeconds), ...series.map((one) => [...one.values])];
}

export function TimeChart(props: TimeChartProps) {
  const { dates, series, unit, step = 'day', label, span } = props;
  const frameRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);

  // Built again when the figures change (a new period); resized when the box does.
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const chart = { dates, series, unit, step, label };
    const plot = new uPlot(plotOptions(chart, frame.clientWidth, setHover), plotData(chart), frame);
    const canvas = plot.ctx.canvas;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', label);
    let width = frame.clientWidth;
    const observer = new ResizeObserver(() => {
      if (frame.clientWidth === width || frame.clientWidth === 0) return;
      width = frame.clientWidth;
      plot.setSize({ width, height: chartHeight(width) });
    });
    observer.observe(frame);
    return () => {
      observer.disconnect();
      plot.destroy();
      setHover(null);
    };
  }, [dates, series, unit, step, label]);

  const format = unit === 'money' ? formatCents : formatCount;
  const first = dates[0];
  const last = dates.at(-1);
  const when =
    hover !== null && dates[hover] !== undefined
      ? `${step === 'week' ? 'Week of ' : ''}${formatDay(dates[hover])}`
      : (span ?? (first && last ? formatPeriod(first, last) : ''));
  return (
    <div className="time-chart">
      <div ref={frameRef} className="time-chart-frame" />
      <div className="chart-legend">
        <p className="chart-legend-when">{when}</p>
        <ul className="chart-legend-series">
          {series.map((one) => {
            const value =
              hover !== null
                ? (one.values[hover] ?? 0)
                : one.summary === 'last'
                  ? (one.values.at(-1) ?? 0)
                  : one.values.reduce((sum, each) => sum + each, 0);
            return (
              <li key={one.label}>
                <span
                  className={`chart-swatch chart-swatch-${one.style}`}
                  style={one.style === 'level' ? { borderColor: one.color } : { backgroundColor: one.color }}
                  aria-hidden="true"
                />
                {one.label} <strong>{format(value)}</strong>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
