import { type ByteRange, parseRange } from '../../shared/http-range';

// HTTP Range over a track stored as chunks of Blob (issue 12): the service worker answers the
// player's requests from the device with the same status codes and headers the server gives (one
// parser for both: shared/http-range.ts), and never reads a whole file: the answer is a Blob made
// of slices of the stored ones.

type Chunk = { start: number; blob: Blob };

/**
 * Bytes start..end (inclusive) of the file the chunks make up, as slices of them. Chunks may
 * overlap (two tabs that saved the same bytes): each byte is taken once, from the first chunk
 * that has it.
 */
export function sliceChunks(chunks: readonly Chunk[], { start, end }: ByteRange): Blob {
  const parts: Blob[] = [];
  let next = start; // the first byte not taken yet
  for (const chunk of [...chunks].sort((a, b) => a.start - b.start)) {
    if (next > end) break;
    const chunkEnd = chunk.start + chunk.blob.size; // exclusive
    if (chunkEnd <= next || chunk.start > next) continue;
    parts.push(chunk.blob.slice(next - chunk.start, Math.min(chunk.blob.size, end + 1 - chunk.start)));
    next = Math.min(chunkEnd, end + 1);
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
  // Like the server: Range is for GET only (RFC 9110 section 14.2), so HEAD gives the whole length.
  const header = request.method === 'GET' ? request.headers.get('range') : null;
  const parsed = header === null ? 'ignore' : parseRange(header, size);
  const range = parsed === 'ignore' ? null : parsed;
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
