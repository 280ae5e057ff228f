// CSV (DESIGN.md "Contract details for money"): RFC 4180 (comma separated, CRLF line ends, a
// field quoted when it holds a comma, quote or line break, quotes doubled), and safe to open in a
// spreadsheet: a cell starting with = + - @ (or a tab or carriage return, which some spreadsheets
// skip before reading a formula) is prefixed with ' so it shows as text. The server's downloads
// (server/infra/csv.ts) and the files the insight pages make in the browser (issue 29) alike.

export type CsvValue = string | number | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csvText(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  let text = csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}
