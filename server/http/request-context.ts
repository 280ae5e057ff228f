import { randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Deps } from '../deps';
import type { AppEnv } from './context';
import { loggedPath, queryOf } from './log-redaction';
import { securityHeaders } from './security-headers';
import { AnswerHeaders, finishAnswer, isWhole } from './answer-headers';
import { requestHeader } from './request-header';
import { servedOverHttps } from './site-url';
import { afterNext, promptMiddleware } from './handler-chain';

function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    // The rightmost entry is the one our own proxy added; anything left of it came from the
    // client and can be forged.
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return clientNetwork(forwarded);
  }
  try {
    return clientNetwork(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    return 'unknown'; // in-process requests (tests calling app.request) have no socket
  }
}

/**
 * A client's address as the per-address limits count it (login, sign-up, payments). An IPv6
 * subscriber is given a whole /64 at least (RFC 6177) and may use any address in it, so counting
 * single IPv6 addresses would give a script 2^64 fresh ones: the /64 is the client. An IPv4
 * address in IPv6 form (a dual-stack socket's "::ffff:203.0.113.5") is that IPv4 address.
 */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, ''); // a zone index ("fe80::1%eth0") names no network
  if (!isIPv6(bare)) return address;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const [head, tail] = bare.split('::');
  const left = groups(head);
  const right = groups(tail);
  // An IPv4 tail ("::ffff:1.2.3.4" written otherwise) fills two groups; only the first four matter.
  const rightGroups = right.reduce((count, group) => count + (group.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - rightGroups).fill('0');
  const prefix = [...left, ...zeros, ...right].slice(0, 4).map((group) => parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * The client's address (clientNetwork), worked out when a limit first asks for it: most requests
 * never do.
 */
export function clientIpOf(c: Context<AppEnv>): string {
  let ip = c.get('clientIp');
  if (ip === undefined) {
    ip = clientIp(c, c.get('deps').config.trustProxy);
    c.set('clientIp', ip);
  }
  return ip;
}

/**
 * A request's id, unique across processes and restarts: this process's random prefix and how many
 * requests it has counted. A random UUID a request was a fifth of a microsecond of each API
 * request's CPU and 36 characters of every access line (issue 24); this is a count and a join.
 */
const requestIdPrefix = `${randomBytes(8).toString('hex')}-`;
let requestCount = 0;
export const newRequestId = (): string => requestIdPrefix + (++requestCount).toString(36);

/**
 * The services' dependencies, the request id, the headers every answer carries (answer-headers.ts,
 * security-headers.ts), and one structured log line per request. One middleware for all of it:
 * each layer of middleware costs every request (issue 13).
 */
export function requestContextMiddleware(deps: Deps) {
  const { config, logger } = deps;
  const security = securityHeaders(config);
  return promptMiddleware((c, next) => {
    c.set('deps', deps);
    const requestId = requestHeader(c, 'x-request-id')?.slice(0, 100) || newRequestId();
    c.set('requestId', requestId);
    const https = servedOverHttps(c, config);
    const collected = new AnswerHeaders(security.forData(https));
    collected.fields['x-request-id'] = requestId;
    c.set('answerHeaders', collected);
    const started = performance.now();
    // After the answer, at once when it was made at once (handler-chain.ts).
    return afterNext(next, () => {
      const res = c.res;
      if (!isWhole(res)) {
        finishAnswer(
          res.headers,
          collected,
          security.forAnswer(https, res.headers.get('content-type'), c.get('styleNonce'), c.get('framable') === true),
        );
      }
      const status = res.status;
      const ms = performance.now() - started;
      logger[status >= 500 ? 'error' : 'info']({
        requestId,
        method: c.req.method,
        // Secrets that travel in addresses never reach the log (log-redaction.ts).
        path: loggedPath(c.req.path, queryOf(c.req.url)),
        status,
        ms: Math.round(ms * 10) / 10,
      });
      // The route as declared (`/api/fundraisers/slug/:slug`), never the address: a bounded set.
      if (deps.metrics.enabled) deps.metrics.request(c.req.method, c.req.routePath, status, ms / 1000);
    });
  });
}

/** What counting a play or a download needs of a request (issue 29's insight), with its answer's status. */
export function mediaRequestOf(c: Context<AppEnv>, status: number) {
  return { method: c.req.method, range: c.req.header('range'), clientIp: clientIpOf(c), status };
}
