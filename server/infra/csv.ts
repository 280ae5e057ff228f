// CSV for admins' downloads: the lines are shared/csv.ts's; here, streaming them and the headers.

import { type CsvValue, csvLine } from '../../shared/csv';

export { type CsvValue, csvCell, csvLine, csvText } from '../../shared/csv';

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
