import fs, { type Stats } from 'node:fs';
import type { Context } from 'hono';
import { parseRange } from '../../shared/http-range';
import type { CachePolicy } from '../deps';

// One file on disk as an HTTP answer (DESIGN.md section 3, Media; RFC 9110 sections 8.8, 13 and
// 14): GET and HEAD, a single byte range, validators and conditional requests. A body larger than
// one chunk is read from disk a chunk at a time as the client takes it, so memory stays flat
// whatever the file size, and the file is closed however the response ends (finished, failed, or
// the client went away). A player seeking through a track sends many small ranges, so each costs
// as little as it can (issue 13, bench/range-throughput.ts): the file is read through a plain
// descriptor and node:fs's callbacks (a FileHandle costs a tenth more CPU), and a range of one
// chunk or less is read whole before answering, without a web stream.

export type SendFileOptions = {
  /** A path the server made (never one a client sent). */
  path: string;
  contentType: string;
  cacheControl: string;
  /**
   * What identifies this content, e.g. a rendition's generated name: it becomes the strong ETag.
   * Without one the ETag is made from size and modification time.
   */
  version?: string;
};

export function cacheControlFor({ cache, immutable }: CachePolicy): string {
  if (cache === 'none') return 'private, no-store';
  // Without a matching version the same URL may answer other bytes tomorrow: keep a copy, but
  // ask every time (a 304 through the ETag costs no body).
  return immutable ? `${cache}, max-age=31536000, immutable` : `${cache}, no-cache`;
}

/**
 * Bytes read per chunk: four times fs.createReadStream's default, which halves the per-chunk cost
 * of the web stream (measured in bench/range-throughput.ts) while a connection holds at most two.
 */
const CHUNK_BYTES = 256 * 1024;

/** Characters an entity tag may hold (RFC 9110 section 8.8.3, etagc without obs-text). */
// Visible ASCII without '"' (RFC 9110 etagc) and without ',', which separates If-None-Match lists.
const ETAG_SAFE = /^[\x21\x23-\x2b\x2d-\x7e]{1,200}$/;

/**
 * Answers the file, or null when there is no file at `path`, so the caller answers its own 404.
 * Only for GET and HEAD (Hono runs GET handlers for HEAD and drops the body; no file is opened then).
 */
export async function sendFile(c: Context, options: SendFileOptions): Promise<Response | null> {
  const isHead = c.req.method === 'HEAD';
  // GET opens the file first and reads its size from the open handle, so the headers describe
  // exactly the bytes that will be read; HEAD only needs the size.
  const opened = isHead ? await statOrNull(options.path) : await openOrNull(options.path);
  if (!opened) return null;
  const { stats, fd } = opened;
  try {
    const answer = answerFor(c, options, stats);
    const headers = answer.headers;
    if (answer.kind !== 'body' || fd === null) {
      if (fd !== null) close(fd);
      return c.body(null, answer.status, headers);
    }
    const length = answer.end - answer.start + 1;
    if (length > CHUNK_BYTES) return c.body(fileBody(fd, answer.start, answer.end), answer.status, headers);
    // What fits in one read is read before answering (a player's range usually does): the same
    // memory as one chunk of a stream, without a web stream's machinery per request.
    const bytes = await readExactly(fd, answer.start, length);
    close(fd);
    return c.body(bytes as Uint8Array<ArrayBuffer>, answer.status, headers);
  } catch (error) {
    if (fd !== null) close(fd);
    throw error;
  }
}

export type Answer =
  | { kind: 'empty'; status: 200 | 304 | 416; headers: Record<string, string> }
  | { kind: 'body'; status: 200 | 206; headers: Record<string, string>; start: number; end: number };

/**
 * What to answer for content of `stats.size` bytes last changed at `stats.mtime`: its headers,
 * and the bytes to send if any (a file here, or an object in the bucket: send-media.ts).
 */
export function answerFor(
  c: Context,
  options: Omit<SendFileOptions, 'path'>,
  stats: Pick<Stats, 'size' | 'mtime'>,
): Answer {
  const size = stats.size;
  const identity =
    options.version && ETAG_SAFE.test(options.version)
      ? options.version
      : `${size.toString(36)}-${Math.floor(stats.mtime.getTime()).toString(36)}`;
  const etag = `"${identity}"`;
  const lastModified = stats.mtime.toUTCString();
  const validators = { etag, 'last-modified': lastModified, 'cache-control': options.cacheControl };

  if (isNotModified(c, etag, stats.mtime)) return { kind: 'empty', status: 304, headers: validators };

  const headers = { ...validators, 'content-type': options.contentType, 'accept-ranges': 'bytes' };
  const whole = (): Answer =>
    c.req.method === 'HEAD' || size === 0
      ? { kind: 'empty', status: 200, headers: { ...headers, 'content-length': String(size) } }
      : { kind: 'body', status: 200, headers: { ...headers, 'content-length': String(size) }, start: 0, end: size - 1 };

  // Range handling is defined for GET only (RFC 9110 section 14.2); HEAD answers the whole length.
  const rangeHeader = c.req.header('range');
  if (c.req.method !== 'GET' || rangeHeader === undefined) return whole();
  // If-Range: the range only applies to the representation the client already has part of.
  const ifRange = c.req.header('if-range');
  if (ifRange !== undefined && !ifRangeMatches(ifRange, etag, stats.mtime)) return whole();

  const range = parseRange(rangeHeader, size);
  if (range === 'ignore') return whole();
  if (range === 'unsatisfiable') {
    // An error is never cached, whatever the URL's own caching says.
    return {
      kind: 'empty',
      status: 416,
      headers: { ...validators, 'content-range': `bytes */${size}`, 'cache-control': 'no-store' },
    };
  }
  return {
    kind: 'body',
    status: 206,
    headers: {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
      'content-length': String(range.end - range.start + 1),
    },
    start: range.start,
    end: range.end,
  };
}

/** An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), else NaN: Date.parse alone takes far more. */
function httpDate(value: string): number {
  return /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())
    ? Date.parse(value)
    : Number.NaN;
}

/** RFC 9110 section 13.2.2: If-None-Match decides when present, else If-Modified-Since. */
function isNotModified(c: Context, etag: string, mtime: Date): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    // Weak comparison (section 8.8.3.2): W/ prefixes do not matter here.
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => opaque(tag) === etag);
  }
  const ifModifiedSince = c.req.header('if-modified-since');
  if (ifModifiedSince === undefined) return false;
  const since = httpDate(ifModifiedSince);
  // HTTP dates have whole seconds; the file's time is compared at that precision.
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/** Strong comparison for an entity tag, exact equality for a date (RFC 9110 section 13.1.5). */
function ifRangeMatches(value: string, etag: string, mtime: Date): boolean {
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return trimmed === etag;
  const date = httpDate(trimmed);
  return !Number.isNaN(date) && date === Math.floor(mtime.getTime() / 1000) * 1000;
}

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

type Opened = { stats: Stats; fd: number | null };

/** Closes a descriptor no read is using any more; nothing is left to tell anyone if that fails. */
const close = (fd: number) => fs.close(fd, () => undefined);

function statOrNull(path: string): Promise<Opened | null> {
  return new Promise((resolve, reject) => {
    fs.stat(path, (error, stats) => {
      if (error) return isMissing(error) ? resolve(null) : reject(error);
      resolve(stats.isFile() ? { stats, fd: null } : null);
    });
  });
}

function openOrNull(path: string): Promise<Opened | null> {
  return new Promise((resolve, reject) => {
    fs.open(path, 'r', (error, fd) => {
      if (error) return isMissing(error) || error.code === 'EISDIR' ? resolve(null) : reject(error);
      fs.fstat(fd, (statError, stats) => {
        if (statError || !stats.isFile()) close(fd);
        if (statError) reject(statError);
        else resolve(stats.isFile() ? { stats, fd } : null);
      });
    });
  });
}

const readAt = (fd: number, buffer: Buffer, position: number) =>
  new Promise<number>((resolve, reject) =>
    fs.read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );

/** `length` bytes from `start`, all there: a file that ended sooner changed since its size was read. */
async function readExactly(fd: number, start: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  for (let read = 0; read < length;) {
    const bytesRead = await readAt(fd, buffer.subarray(read), start + read);
    if (bytesRead === 0) throw new Error('the file ended before the bytes it announced');
    read += bytesRead;
  }
  return buffer;
}

/**
 * Bytes start..end (inclusive) of an open file, read only when the consumer pulls: one chunk
 * ahead at most. The descriptor closes at the end, on a read error, and when the consumer cancels
 * (@hono/node-server cancels the stream when the client's connection closes) — but never while a
 * read is in flight: the number could be given to another file meanwhile, and the read land there.
 */
function fileBody(fd: number, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let done = false;
  let reading = false;
  const finish = () => {
    if (done) return;
    done = true;
    if (!reading) close(fd);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const length = Math.min(CHUNK_BYTES, end + 1 - position);
        const buffer = Buffer.allocUnsafe(length);
        let read: { bytes: number } | { error: unknown };
        reading = true;
        try {
          read = { bytes: await readAt(fd, buffer, position) };
        } catch (error) {
          read = { error };
        }
        reading = false;
        if (done) {
          close(fd); // cancelled while the read was in flight: the close waited for it
          return;
        }
        if ('error' in read) {
          finish();
          controller.error(read.error);
          return;
        }
        const bytesRead = read.bytes;
        if (bytesRead === 0) {
          finish();
          controller.error(new Error('the file ended before the bytes it announced'));
          return;
        }
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
        if (position > end) {
          finish();
          controller.close();
        }
      },
      cancel: finish,
    },
    { highWaterMark: 1 },
  );
}
