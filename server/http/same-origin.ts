import type { Context } from 'hono';
import { serverMessages } from '../../shared/api';
import type { AppEnv } from './context';
import { forbidden } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What any page may send: the embedded player's reports (issue 28), from a frame on another
 * site, sandboxed frames too (whose origin is "null", as WordPress makes them). They carry no
 * cookie and change nothing but a count, so there is no request of a victim's to forge.
 */
const FROM_ANY_PAGE = /^\/api\/fundraisers\/[^/]+\/embed-events$/;

/**
 * Refuses state-changing requests sent from another site (CSRF). Browsers always send Origin on
 * cross-origin POST/PATCH/PUT/DELETE, and Sec-Fetch-Site everywhere modern; requests with
 * neither come from non-browser clients, which carry no victim's cookies. The site's own origin
 * is PUBLIC_URL when set, else the request's own host (DESIGN.md contract details).
 */
export function refuseCrossSiteChanges(c: Context<AppEnv>): void {
  if (SAFE_METHODS.has(c.req.method) || FROM_ANY_PAGE.test(c.req.path)) return;
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    if (!isOwnOrigin(origin, c.get('deps').config.publicUrl, c.req.header('host'))) {
      throw forbidden(serverMessages.crossOrigin);
    }
  } else if (c.req.header('sec-fetch-site') === 'cross-site') {
    throw forbidden(serverMessages.crossOrigin);
  }
}

function isOwnOrigin(origin: string, publicUrl: string | undefined, host: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (publicUrl) return parsed.origin === new URL(publicUrl).origin;
  return host !== undefined && parsed.host === host;
}
