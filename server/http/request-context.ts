import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import type { AppEnv } from './context';
import { loggedPath, queryOf } from './log-redaction';
import { securityHeaders } from './security-headers';
import { servedOverHttps } from './site-url';

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

/**
 * The services' dependencies, the request id and client address, the headers every answer
 * carries (security-headers.ts), and one structured log line per request. One middleware for all of it: each layer of
 * middleware costs every request (issue 13). Headers go on the answer's own headers: c.header()
 * on a finished answer would copy it whole (Hono).
 */
export function requestContextMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  const { config, logger } = deps;
  const setSecurityHeaders = securityHeaders(config);
  return async (c, next) => {
    c.set('deps', deps);
    const requestId = c.req.header('x-request-id')?.slice(0, 100) || randomUUID();
    c.set('requestId', requestId);
    c.set('clientIp', clientIp(c, config.trustProxy));
    const started = performance.now();
    await next();
    const headers = c.res.headers;
    headers.set('x-request-id', requestId);
    setSecurityHeaders(headers, servedOverHttps(c, config), c.get('styleNonce'));
    const status = c.res.status;
    logger[status >= 500 ? 'error' : 'info']({
      requestId,
      method: c.req.method,
      // Secrets that travel in addresses never reach the log (log-redaction.ts).
      path: loggedPath(c.req.path, queryOf(c.req.url)),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
