import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksComplete, rangedResponse, sliceChunks } from '../../client/offline/ranged-blob';
import { parseRange } from '../../shared/http-range';

// The service worker's Range answers over stored chunks (issue 12): the same statuses and headers
// as the server's (server/http/send-file.ts reads Range with the same parseRange), and the exact
// bytes, whatever the chunk boundaries.

const bytes = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + 3) % 251);

/** A file of `data` cut into chunks at the given boundaries. */
function chunked(data: Uint8Array, cuts: number[]) {
  const points = [
    0,
    ...[...new Set(cuts)].filter((cut) => cut > 0 && cut < data.length).sort((a, b) => a - b),
    data.length,
  ];
  return points.slice(0, -1).map((start, i) => ({ start, blob: new Blob([data.slice(start, points[i + 1])]) }));
}

const read = async (blob: Blob | Response) => new Uint8Array(await blob.arrayBuffer());
const get = (range?: string) => ({ method: 'GET', headers: new Headers(range ? { range } : {}) });

describe('parseRange', () => {
  it('reads first-byte, open-ended and suffix ranges, clipped to the file', () => {
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=-30', 100)).toEqual({ start: 70, end: 99 });
    expect(parseRange('bytes=-300', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
  });

  it('answers unsatisfiable past the end; ignores (whole file) several, malformed and backwards ranges', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // RFC 9110 section 14.1.1: last < first is an invalid range-spec, not an unsatisfiable one.
    expect(parseRange('bytes=50-40', 100)).toBe('ignore');
    expect(parseRange('bytes=0-1,5-6', 100)).toBe('ignore');
    expect(parseRange('items=0-1', 100)).toBe('ignore');
    expect(parseRange('bytes=-', 100)).toBe('ignore');
    expect(parseRange('Bytes = 5-9', 100)).toEqual({ start: 5, end: 9 });
  });
});

describe('rangedResponse', () => {
  const data = bytes(1000);
  const chunks = chunked(data, [100, 333, 334, 900]);

  it('answers the first byte, an open end, a suffix and a span across chunks with 206 and the exact bytes', async () => {
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=950-', 950, 999],
      ['bytes=-10', 990, 999],
      ['bytes=90-905', 90, 905],
    ] as const) {
      const response = rangedResponse(get(range), chunks, data.length, 'audio/mpeg');
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
      expect(response.headers.get('content-length')).toBe(String(end - start + 1));
      expect(await read(response)).toEqual(data.slice(start, end + 1));
    }
  });

  it('answers the whole file with 200, a range past the end with 416, and HEAD without a body', async () => {
    const whole = rangedResponse(get(), chunks, data.length, 'audio/mpeg');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(await read(whole)).toEqual(data);

    const past = rangedResponse(get('bytes=1000-'), chunks, data.length, 'audio/mpeg');
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');

    const head = rangedResponse({ method: 'HEAD', headers: new Headers() }, chunks, data.length, 'audio/mpeg');
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.body).toBeNull();
  });

  it('answers like the server where a range does not apply: backwards is the whole file, HEAD ignores Range', async () => {
    const backwards = rangedResponse(get('bytes=50-40'), chunks, data.length, 'audio/mpeg');
    expect(backwards.status).toBe(200);
    expect(backwards.headers.get('content-range')).toBeNull();
    expect(await read(backwards)).toEqual(data);

    const head = rangedResponse(
      { method: 'HEAD', headers: new Headers({ range: 'bytes=10-19' }) },
      chunks,
      data.length,
      'audio/mpeg',
    );
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.headers.get('content-range')).toBeNull();
    expect(head.body).toBeNull();
  });

  it('gives the same bytes as slicing the file, for any chunking and any range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.integer({ min: 1, max: 399 }), { maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        async (size, cuts, a, b) => {
          const file = bytes(size);
          const start = a % size;
          const end = start + (b % (size - start));
          const slice = sliceChunks(chunked(file, cuts), { start, end });
          expect(await read(slice)).toEqual(file.slice(start, end + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes each byte once when chunks overlap (two tabs saved the same bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 120 })), { maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        async (size, extra, a, b) => {
          const file = bytes(size);
          // A whole copy cut in two, plus pieces of it saved again at random places.
          const cut = Math.floor(size / 2);
          const pieces = [
            ...chunked(file, [cut]),
            ...extra.map(([at, length]) => {
              const start = at % size;
              return { start, blob: new Blob([file.slice(start, Math.min(size, start + length))]) };
            }),
          ];
          const start = a % size;
          const end = start + (b % (size - start));
          expect(await read(sliceChunks(pieces, { start, end }))).toEqual(file.slice(start, end + 1));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('chunksComplete', () => {
  it('is true only when the chunks cover the whole file', () => {
    const data = bytes(100);
    expect(chunksComplete(chunked(data, [40]), 100)).toBe(true);
    expect(chunksComplete(chunked(data, [40]).slice(0, 1), 100)).toBe(false);
    expect(chunksComplete([{ start: 50, blob: new Blob([data.slice(50)]) }], 100)).toBe(false);
    expect(chunksComplete([], 0)).toBe(false);
  });
});
