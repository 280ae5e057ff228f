import { csvCell, csvLine } from '../../../shared/csv';
import { formatCount } from '../../../shared/format-count';
import { formatCents, plainDollars } from '../../../shared/money';
import { formatDay } from './insight-format';

// What each insight chart shows, as rows: the chart's table (for whoever reads rather than looks)
// and its CSV are written from the same rows, so the three never disagree.

/** `money` is cents; `date` a calendar day ("2026-11-01"). */
export type InsightUnit = 'date' | 'text' | 'money' | 'count';
export type InsightColumn = { label: string; unit: InsightUnit };
/** A cell's text with a page it names (a fundraiser's). */
export type InsightLink = { text: string; href: string };
export type InsightCell = string | number | InsightLink;
export type InsightTable = { columns: readonly InsightColumn[]; rows: readonly (readonly InsightCell[])[] };

const textOf = (cell: InsightCell) => (typeof cell === 'object' ? cell.text : String(cell));

/** A cell as the table shows it: "Nov 1, 2026", "$12.34", "1,234". */
export function cellText(unit: InsightUnit, cell: InsightCell): string {
  if (typeof cell === 'number') {
    if (unit === 'money') return formatCents(cell);
    if (unit === 'count') return formatCount(cell);
    return String(cell);
  }
  const text = textOf(cell);
  return unit === 'date' ? formatDay(text) : text;
}

/** A column's CSV header: money says its currency, "Raised (USD)". */
export function csvHeader(column: InsightColumn): string {
  return column.unit === 'money' ? `${column.label} (USD)` : column.label;
}

/** Dates as "2026-11-01", money as dollars with two decimals ("12.34", "-7.00": a number, not text), counts as digits. */
function csvValue(unit: InsightUnit, cell: InsightCell): string {
  if (typeof cell === 'number') return unit === 'money' ? plainDollars(cell) : String(cell);
  return csvCell(textOf(cell));
}

/** The table as a CSV file's text: a header row, then a line per row, CRLF line ends. */
export function tableCsv(table: InsightTable): string {
  // Cells made here already (a number stays a number): each line joins them as the server's do.
  let text = csvLine(table.columns.map((column) => csvHeader(column)));
  for (const row of table.rows) {
    text += row.map((cell, index) => csvValue(table.columns[index]!.unit, cell)).join(',') + '\r\n';
  }
  return text;
}

/** "Songs for Relief!" → "songs-for-relief": a safe part of a file name. */
function fileNamePart(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'insight'
  );
}

/** `{slug}-raised-2026-11-01-to-2026-11-30.csv`. */
export function csvFileName(owner: string, what: string, first: string, last: string): string {
  return `${fileNamePart(owner)}-${fileNamePart(what)}-${first}-to-${last}.csv`;
}

/** Hands the browser a CSV file made here, with nothing asked of the server. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has begun with the click; the address is kept a moment for browsers that read it late.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
