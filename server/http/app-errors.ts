import { MediaStoreError } from '../infra/storage/objects';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody, FormErrorsBody } from '../../shared/answers/api';
import { messages } from '../../shared/messages';
import { AppError, type ErrorKind, FormError } from '../errors';
import type { AppEnv } from './context';

const statusOf = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'payment-refused': 402,
  'too-large': 413,
  'unsupported-media': 415,
  'rate-limited': 429,
  'not-implemented': 501,
  unavailable: 503,
} as const satisfies Record<ErrorKind, ContentfulStatusCode>;

/**
 * A body refused as too large is answered before the client has finished sending it; what is left
 * is read and thrown away for a moment, then the connection is dropped (@hono/node-server). Said
 * up front, so no client sends its next request on a connection about to close (which it would
 * see fail with ECONNRESET).
 */
const REFUSED_UNREAD = { connection: 'close' };

/** The one place errors become HTTP answers: `{ code, message }` or `{ formErrors }` (DESIGN.md s3). */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof FormError) {
    return c.json({ formErrors: error.formErrors } satisfies FormErrorsBody, 400);
  }
  if (error instanceof AppError) {
    const body = { ...error.details, code: error.code, message: error.message } satisfies ApiErrorBody;
    // RFC 9110 section 10.2.3: whole seconds, rounded up so a client that waits that long is let in.
    const headers: Record<string, string> = {};
    if (error.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
    if (error.kind === 'too-large') Object.assign(headers, REFUSED_UNREAD);
    return c.json(body, statusOf[error.kind], headers);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const message = error.status === 413 ? 'The request body is too large.' : error.message || 'Bad request.';
    const headers = error.status === 413 ? REFUSED_UNREAD : undefined;
    return c.json({ code: 'OTHER', message } satisfies ApiErrorBody, error.status as ContentfulStatusCode, headers);
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
    // Another writer held the database past busy_timeout (a backup's copy, a burst of writes from
    // several processes). The transaction that met it was rolled back; the same request a moment
    // later goes through (better-sqlite3 reports extended codes: SQLITE_BUSY_SNAPSHOT and others).
    const deps = c.get('deps');
    deps.metrics.sqliteBusy();
    deps.logger.warn({ requestId: c.get('requestId') }, 'the database stayed busy: answered 503');
    return c.json({ code: 'OTHER', message: messages.busy } satisfies ApiErrorBody, 503, { 'retry-after': '2' });
  }
  if (error instanceof MediaStoreError) {
    // The bucket did not take an upload or a rendition (unreachable, refusing): nothing was saved.
    c.get('deps').logger.error({ err: error, requestId: c.get('requestId') }, 'the media store failed: answered 503');
    return c.json({ code: 'OTHER', message: messages.storageUnavailable } satisfies ApiErrorBody, 503, {
      'retry-after': '5',
    });
  }
  c.get('deps').logger.error({ err: error, requestId: c.get('requestId') }, 'unhandled error');
  return c.json({ code: 'OTHER', message: messages.generic } satisfies ApiErrorBody, 500);
}
