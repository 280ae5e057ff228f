import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    // The rightmost entry is the one our own proxy added; anything left of it came from the
    // client and can be forged.
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests calling app.request) have no socket
  }
}

/** Secrets that travel in paths never reach the logs. */
function redactPath(path: string): string {
  return path.replace(/\/(token-user|reset-password)\/[^/?]+/g, '/$1/[redacted]');
}

/** Request id, client address, and one structured log line per request. */
export const requestContextMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { config, logger } = c.get('deps');
  const requestId = c.req.header('x-request-id')?.slice(0, 100) || randomUUID();
  c.set('requestId', requestId);
  c.set('clientIp', clientIp(c, config.trustProxy));
  const started = performance.now();
  await next();
  c.res.headers.set('x-request-id', requestId);
  const status = c.res.status;
  logger[status >= 500 ? 'error' : 'info']({
    requestId,
    method: c.req.method,
    path: redactPath(c.req.path),
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
};
