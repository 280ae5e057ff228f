// HTTP Range over a track stored as chunks of Blob (issue 12): the service worker answers the
// player's requests from the device with the same status codes and headers the server gives, and
// never reads a whole file: the answer is a Blob made of slices of the stored ones.

export type ByteRange = { start: number; end: number };

/**
 * What a Range header asks of a `size`-byte file: the whole file (null), one range (end
 * inclusive), or 'unsatisfiable' (416). Like the server (server/http/send-file.ts), several ranges
 * or a malformed header get the whole file.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

type Chunk = { start: number; blob: Blob };

/** Bytes start..end (inclusive) of the file the chunks make up, as slices of them. */
export function sliceChunks(chunks: readonly Chunk[], { start, end }: ByteRange): Blob {
  const parts: Blob[] = [];
  for (const chunk of chunks) {
    const chunkEnd = chunk.start + chunk.blob.size; // exclusive
    if (chunkEnd <= start || chunk.start > end) continue;
    parts.push(chunk.blob.slice(Math.max(0, start - chunk.start), Math.min(chunk.blob.size, end + 1 - chunk.start)));
  }
  return new Blob(parts);
}

/** Whether the chunks cover 0..size-1 without a gap (a track that finished saving). */
export function chunksComplete(chunks: readonly Chunk[], size: number): boolean {
  let next = 0;
  for (const chunk of [...chunks].sort((a, b) => a.start - b.start)) {
    if (chunk.start > next) return false;
    next = Math.max(next, chunk.start + chunk.blob.size);
  }
  return size > 0 && next >= size;
}

/** The answer to a GET or HEAD of a stored file, as the server would give it. */
export function rangedResponse(
  request: { method: string; headers: Headers },
  chunks: readonly Chunk[],
  size: number,
  contentType: string,
): Response {
  const headers = new Headers({
    'content-type': contentType,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
  });
  const range = parseRange(request.headers.get('range'), size);
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers.set('content-length', String(end - start + 1));
  if (range) headers.set('content-range', `bytes ${start}-${end}/${size}`);
  const body = request.method === 'HEAD' ? null : sliceChunks(chunks, { start, end });
  return new Response(body, { status: range ? 206 : 200, headers });
}
