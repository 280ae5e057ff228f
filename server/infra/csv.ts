// CSV for admins' downloads (DESIGN.md "Contract details for money"): RFC 4180 (comma separated,
// CRLF line ends, a field quoted when it holds a comma, quote or line break, quotes doubled), and
// safe to open in a spreadsheet: a cell starting with = + - @ (or a tab or carriage return, which
// some spreadsheets skip before reading a formula) is prefixed with ' so it shows as text.

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

/**
 * A CSV body streamed a page of rows at a time, each page asked for only when the client has read
 * the last: memory stays flat whatever the row count, and the database is free between pages (a
 * slow download never holds a statement open).
 */
export function csvStream(header: readonly string[], pages: Iterator<readonly (readonly CsvValue[])[]>) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvLine(header)));
      },
      pull(controller) {
        const next = pages.next();
        if (next.done) {
          controller.close();
          return;
        }
        let chunk = '';
        for (const row of next.value) chunk += csvLine(row);
        controller.enqueue(encoder.encode(chunk));
      },
    },
    // One page ahead is enough to keep the socket busy.
    { highWaterMark: 1 },
  );
}

/** `attachment; filename="{name}-YYYY-MM-DD.csv"`, dated today (UTC). */
export function csvAttachment(name: string, now = new Date()) {
  return `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`;
}
