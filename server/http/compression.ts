import zlib from 'node:zlib';
import type { Context } from 'hono';
import { SerializedJson } from '../infra/serialized-json';
import type { AppEnv } from './context';
import { answerHeadersOf, madeWhole, wholeAnswerHeaders } from './answer-headers';
import { requestHeader } from './request-header';
import { afterNext, promptMiddleware } from './handler-chain';

// Compression of what the server writes itself (issue 13): JSON answers, index.html and the CSV.
// Built assets are compressed once at build time (scripts/precompress.mjs) and served as they are
// by client-app.ts. Audio, images and zips are never touched: they are compressed already, and
// they are served in ranges.

/** Below this a compressed answer saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** What is worth compressing: text of every kind the server writes. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|manifest\+json|xml|problem\+json))/i;

/** Bodies the handlers stream (the CSV): compressed as they pass, never read whole. */
const STREAMED = /^text\/csv/i;

type Encoding = 'br' | 'gzip';

/** Browsers send a handful of distinct Accept-Encoding values: each is parsed once. */
const chosen = new Map<string, Encoding | undefined>();

/** The best encoding the client accepts (q > 0), brotli first. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  if (chosen.has(acceptEncoding)) return chosen.get(acceptEncoding);
  const encoding = parseAcceptEncoding(acceptEncoding);
  if (chosen.size >= 100) chosen.clear();
  chosen.set(acceptEncoding, encoding);
  return encoding;
}

/** Whether the client takes gzip (q > 0), whatever else it prefers. */
export const acceptsGzip = (acceptEncoding: string | undefined) =>
  chooseEncoding(acceptEncoding?.replace(/\bbr\b/gi, 'x-none')) === 'gzip';

function parseAcceptEncoding(acceptEncoding: string): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const quality = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (quality('br') > 0) return 'br';
  if (quality('gzip') > 0) return 'gzip';
  return undefined;
}

function compressBuffer(bytes: Uint8Array, encoding: Encoding): Buffer {
  // Quality 5 brotli: close to gzip's speed, well ahead of its size, for answers made per request.
  return encoding === 'br'
    ? zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : zlib.gzipSync(bytes, { level: 6 });
}

/**
 * Marks JSON answers negotiated as they were made (below): the middleware leaves them as they
 * are. A property, not a WeakSet (answer-headers.ts says why).
 */
const NEGOTIATED = Symbol('negotiated as made');
const negotiated = (response: Response): Response => {
  (response as Response & { [NEGOTIATED]?: true })[NEGOTIATED] = true;
  return response;
};

/**
 * `c.json` for this request, compressing as it writes: the answer goes out as the one body it is,
 * without being read back from a stream, which costs an API request more than its own work
 * (issue 13), and with every header the middleware collected for it (answer-headers.ts), so
 * nothing changes it afterwards (issue 24). Also takes a SerializedJson (a cached public answer),
 * whose text and compressed copies are made once. A header set with `c.header()` beforehand would
 * not be on it: routes pass theirs with the answer (eslint.config.js says so to each route).
 */
function negotiatingJson(c: Context<AppEnv>, encoding: Encoding | undefined): Context<AppEnv>['json'] {
  const json = (value: unknown, arg?: unknown, headers?: Record<string, string>) => {
    const cached = value instanceof SerializedJson ? value : undefined;
    const text = cached ? cached.text : JSON.stringify(value);
    // Object.assign, not a spread: see wholeAnswerHeaders.
    const own: Record<string, string> = Object.assign({ 'content-type': 'application/json' }, headers);
    own.vary = headers?.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    let body: string | Uint8Array = text;
    // A string's length is at most its UTF-8 size, so below the threshold it is small either way.
    if (encoding && text.length >= COMPRESS_THRESHOLD_BYTES) {
      let compressed = cached?.encoded.get(encoding);
      if (!compressed) {
        compressed = compressBuffer(Buffer.from(text), encoding);
        cached?.encoded.set(encoding, compressed);
      }
      body = compressed;
      own['content-encoding'] = encoding;
    }
    // c.json(value, { status, headers }) is Hono's too; no route answers that way.
    if (arg !== undefined && typeof arg !== 'number') throw new TypeError('c.json takes a status number here');
    const headersOfAnswer = wholeAnswerHeaders(answerHeadersOf(c), own);
    return negotiated(madeWhole(new Response(body as BodyInit, { status: arg ?? 200, headers: headersOfAnswer })));
  };
  return json as unknown as Context<AppEnv>['json'];
}

export const compressResponses = promptMiddleware((c, next) => {
  if (c.req.method !== 'HEAD') c.json = negotiatingJson(c, chooseEncoding(requestHeader(c, 'accept-encoding')));
  // At once for an answer made at once and negotiated as it was made (handler-chain.ts).
  return afterNext(next, () => (NEGOTIATED in c.res ? undefined : compressAnswer(c)));
});

/** Compresses an answer that was not negotiated as it was made (a page, the CSV, a text file). */
async function compressAnswer(c: Context<AppEnv>): Promise<void> {
  const res = c.res;
  const type = res.headers.get('content-type') ?? '';
  // Cheapest first: asking for the body makes @hono/node-server build a whole web Response,
  // which audio (never compressed, and often a 206) must not pay for (issue 13).
  if (
    c.req.method === 'HEAD' ||
    res.status === 206 ||
    res.status === 204 ||
    res.status === 304 ||
    res.headers.has('content-encoding') ||
    !COMPRESSIBLE.test(type) ||
    /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('cache-control') ?? '') ||
    !res.body
  ) {
    return;
  }
  const vary = res.headers.get('vary');
  if (!vary || !/accept-encoding/i.test(vary)) {
    res.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  }
  const encoding = chooseEncoding(requestHeader(c, 'accept-encoding'));
  if (!encoding) return;

  // (Hono copies the old answer's headers onto a new one: the encoding's own are set after.)
  if (STREAMED.test(type)) {
    // Node's CompressionStream has no brotli; gzip keeps the stream a stream.
    if (!acceptsGzip(requestHeader(c, 'accept-encoding'))) return;
    c.res = new Response(res.body.pipeThrough(new CompressionStream('gzip')), res);
    c.res.headers.delete('content-length');
    c.res.headers.set('content-encoding', 'gzip');
    return;
  }

  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length < COMPRESS_THRESHOLD_BYTES) {
    c.res = new Response(bytes, res);
    return;
  }
  const compressed = compressBuffer(bytes, encoding);
  c.res = new Response(compressed as Uint8Array<ArrayBuffer>, res);
  c.res.headers.set('content-encoding', encoding);
  c.res.headers.set('content-length', String(compressed.length));
  const etag = c.res.headers.get('etag');
  if (etag && !etag.startsWith('W/')) c.res.headers.set('etag', `W/${etag}`);
}
