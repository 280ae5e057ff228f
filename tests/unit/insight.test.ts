import { afterEach, describe, expect, it } from 'vitest';
import {
  axisCount,
  axisDateLabels,
  axisDateSplits,
  axisMoney,
  axisTop,
  daySeconds,
  formatDay,
  formatPeriod,
  runningTotals,
} from '../../client/ui/insight/insight-format';
import { csvCell } from '../../shared/csv';
import { cellText, csvFileName, type InsightTable, tableCsv } from '../../client/ui/insight/insight-table';

// The insight pages' pure parts (issue 29): how a chart's axes and legend write days and figures,
// and the CSV each chart downloads, written from the same rows as its table.

const DAY = 24 * 60 * 60;
const originalZone = process.env.TZ;

afterEach(() => {
  process.env.TZ = originalZone;
});

describe('insight dates', () => {
  it('reads a calendar day as UTC midnight and writes it back the same in any viewer’s zone', () => {
    for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC']) {
      process.env.TZ = zone;
      expect(daySeconds('2026-11-01')).toBe(Date.UTC(2026, 10, 1) / 1000);
      expect(formatDay('2026-11-01')).toBe('Nov 1, 2026');
      expect(axisDateLabels([daySeconds('2026-11-01'), daySeconds('2026-11-08')], 7 * DAY)).toEqual(['Nov 1', 'Nov 8']);
    }
  });

  it('says a period with its year once, or twice when it spans two', () => {
    expect(formatPeriod('2026-11-01', '2026-11-30')).toBe('Nov 1 to Nov 30, 2026');
    expect(formatPeriod('2025-12-01', '2026-11-30')).toBe('Dec 1, 2025 to Nov 30, 2026');
    expect(formatPeriod('2026-11-30', '2026-11-30')).toBe('Nov 30, 2026');
  });

  it('labels month ticks by month, with the year on the first and on each January; year ticks by year', () => {
    const months = ['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01'].map(daySeconds);
    expect(axisDateLabels(months, 30 * DAY)).toEqual(['Nov 2026', 'Dec', 'Jan 2027', 'Feb']);
    expect(axisDateLabels(['2026-01-01', '2027-01-01'].map(daySeconds), 365 * DAY)).toEqual(['2026', '2027']);
  });
});

describe('insight x axis ticks', () => {
  const days = (...dates: string[]) => dates.map(daySeconds);

  it('counts days and weeks back from the last, so the latest is always labelled', () => {
    expect(axisDateSplits(daySeconds('2026-10-31'), daySeconds('2026-11-29'), 7 * DAY, 'day')).toEqual(
      days('2026-11-01', '2026-11-08', '2026-11-15', '2026-11-22', '2026-11-29'),
    );
    expect(axisDateSplits(daySeconds('2026-11-23'), daySeconds('2026-11-29'), DAY, 'day')).toHaveLength(7);
    // Weeks: Mondays, every other one from the last.
    expect(axisDateSplits(daySeconds('2026-10-26'), daySeconds('2026-11-23'), 14 * DAY, 'week')).toEqual(
      days('2026-10-26', '2026-11-09', '2026-11-23'),
    );
  });

  it("puts longer steps on months' and years' first days within the period", () => {
    expect(axisDateSplits(daySeconds('2026-07-28'), daySeconds('2026-11-29'), 30 * DAY, 'day')).toEqual(
      days('2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01'),
    );
    // Whole quarters, across a new year.
    expect(axisDateSplits(daySeconds('2026-02-01'), daySeconds('2027-05-15'), 91 * DAY, 'day')).toEqual(
      days('2026-04-01', '2026-07-01', '2026-10-01', '2027-01-01', '2027-04-01'),
    );
    expect(axisDateSplits(daySeconds('2026-01-01'), daySeconds('2026-03-15'), 60 * DAY, 'day')).toEqual(
      days('2026-01-01', '2026-03-01'),
    );
    expect(axisDateSplits(daySeconds('2023-06-01'), daySeconds('2026-11-29'), 365 * DAY, 'day')).toEqual(
      days('2024-01-01', '2025-01-01', '2026-01-01'),
    );
    expect(axisDateSplits(daySeconds('2023-06-01'), daySeconds('2026-11-29'), 730 * DAY, 'day')).toEqual(
      days('2024-01-01', '2026-01-01'),
    );
  });
});

describe('insight axes', () => {
  it('writes money in whole dollars, short once large, and cents only where there are some', () => {
    expect(axisMoney(0)).toBe('$0');
    expect(axisMoney(95_000)).toBe('$950');
    expect(axisMoney(250)).toBe('$2.50');
    expect(axisMoney(123_400)).toBe('$1,234');
    expect(axisMoney(1_250_000)).toBe('$12.5k');
    expect(axisMoney(50_000_000)).toBe('$500k');
    expect(axisMoney(340_000_000)).toBe('$3.4M');
    expect(axisMoney(-70_000)).toBe('-$700');
  });

  it('writes counts grouped, short once large', () => {
    expect(axisCount(9_999)).toBe('9,999');
    expect(axisCount(12_500)).toBe('12.5k');
    expect(axisCount(2_000_000)).toBe('2M');
  });

  it('tops the y axis at the next round figure above the data, and at a small one for zeros', () => {
    expect(axisTop(0, 'count')).toBe(4);
    expect(axisTop(0, 'money')).toBe(1000);
    expect(axisTop(1, 'count')).toBe(4);
    expect(axisTop(9, 'count')).toBe(10);
    expect(axisTop(10, 'count')).toBe(12);
    expect(axisTop(100_000, 'count')).toBe(120_000);
    expect(axisTop(100_000, 'money')).toBe(120_000);
    expect(axisTop(180, 'count')).toBe(200);
    expect(axisTop(4_000, 'money')).toBe(5_000);
    expect(axisTop(2_300, 'money')).toBe(2_500);
    expect(axisTop(12, 'money')).toBe(100);
  });

  it('runs a total from what came before the period', () => {
    expect(runningTotals(100, [0, 5, 0, 10, -3])).toEqual([100, 105, 105, 115, 112]);
    expect(runningTotals(0, [])).toEqual([]);
  });
});

describe("a chart's table and CSV", () => {
  const table: InsightTable = {
    columns: [
      { label: 'Date', unit: 'date' },
      { label: 'Raised', unit: 'money' },
      { label: 'Donations', unit: 'count' },
    ],
    rows: [
      ['2026-11-01', 123_456, 1_234],
      ['2026-11-02', -700, 0],
    ],
  };

  it('shows dates, dollars and counts as people read them', () => {
    expect(cellText('date', '2026-11-01')).toBe('Nov 1, 2026');
    expect(cellText('money', 123_456)).toBe('$1,234.56');
    expect(cellText('count', 1_234)).toBe('1,234');
    expect(cellText('text', { text: 'Songs', href: '/projects/songs' })).toBe('Songs');
  });

  it('writes a header row naming the currency, then ISO dates, dollars with two decimals and plain counts', () => {
    expect(tableCsv(table)).toBe('Date,Raised (USD),Donations\r\n2026-11-01,1234.56,1234\r\n2026-11-02,-7.00,0\r\n');
  });

  it("quotes what needs quoting and keeps someone else's text from running as a formula", () => {
    const sources: InsightTable = {
      columns: [
        { label: 'Source', unit: 'text' },
        { label: 'Visits', unit: 'count' },
      ],
      rows: [
        ['=HYPERLINK("x")', 3],
        [{ text: 'Relief, "Live"', href: '/projects/relief' }, 1],
      ],
    };
    expect(tableCsv(sources)).toBe(`Source,Visits\r\n"'=HYPERLINK(""x"")",3\r\n"Relief, ""Live""",1\r\n`);
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell(-250)).toBe('-250');
  });

  it('names the file after whose figures, which chart and which days', () => {
    expect(csvFileName('songs-for-relief', 'raised', '2026-11-01', '2026-11-30')).toBe(
      'songs-for-relief-raised-2026-11-01-to-2026-11-30.csv',
    );
    expect(csvFileName('Soundcause', 'top-fundraisers', '2026-11-24', '2026-11-30')).toBe(
      'soundcause-top-fundraisers-2026-11-24-to-2026-11-30.csv',
    );
    expect(csvFileName('../Ünïcode', 'raised', '2026-11-01', '2026-11-01')).toBe(
      'unicode-raised-2026-11-01-to-2026-11-01.csv',
    );
  });
});
