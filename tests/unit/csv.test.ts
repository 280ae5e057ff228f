import { describe, expect, it } from 'vitest';
import { csvAttachment, csvCell, csvLine, csvStream, type CsvValue } from '../../server/infra/csv';

// The admins' CSV (DESIGN.md "Contract details for money"): RFC 4180, safe to open in a
// spreadsheet, and streamed a page at a time.

describe('a CSV cell', () => {
  it("neutralises every formula prefix with ' (= + - @, and tab or carriage return first)", () => {
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    // A carriage return also needs the quotes of RFC 4180.
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    // Only at the start; numbers are numbers, negative ones included.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('fan+tag@example.org')).toBe('fan+tag@example.org');
    expect(csvCell(-250)).toBe('-250');
  });

  it('quotes a comma, a quote or a line break, doubling quotes, and leaves the rest bare', () => {
    expect(csvCell('Relief, "Live"')).toBe('"Relief, ""Live"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });

  it('names the file with the day', () => {
    expect(csvAttachment('transactions', new Date('2026-03-04T23:59:00Z'))).toBe(
      'attachment; filename="transactions-2026-03-04.csv"',
    );
  });
});

describe('a CSV stream', () => {
  /** Pages of `rows` rows each, counting how many the stream has asked for. */
  function pages(count: number, rows: number) {
    const asked = { pages: 0 };
    function* generate(): Generator<CsvValue[][]> {
      for (let page = 0; page < count; page++) {
        asked.pages++;
        yield Array.from({ length: rows }, (_, i) => [page, i]);
      }
    }
    return { asked, iterator: generate() };
  }

  it('asks for a page only when the one before has been read, one page per chunk', async () => {
    const { asked, iterator } = pages(50, 1000);
    const reader = csvStream(['page', 'row'], iterator).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('page,row\r\n');
    const first = decoder.decode((await reader.read()).value);
    expect(first.split('\r\n')).toHaveLength(1001);
    expect(first.startsWith('0,0\r\n')).toBe(true);
    // One page read, and at most one more ahead (the stream's high-water mark): not the 50.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked.pages).toBeLessThanOrEqual(2);
    let chunks = 1;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks++;
      expect(decoder.decode(next.value).split('\r\n')).toHaveLength(1001);
    }
    expect(chunks).toBe(50);
    expect(asked.pages).toBe(50);
  });
});
