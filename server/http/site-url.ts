import type { Context } from 'hono';
import type { Config } from '../config';
import type { AppEnv } from './context';
import { requestHeader } from './request-header';

/**
 * The address put into emailed links. PUBLIC_URL when set (production requires it). Without it
 * the request's own host is used only when it is this machine, so a forged Host header cannot
 * send someone's reset link to another site.
 */
export function siteUrlForEmails(c: Context<AppEnv>): string {
  const { config } = c.get('deps');
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(c.req.url);
  const isLoopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return isLoopback ? url.origin : `http://localhost:${config.port}`;
}

/**
 * Whether the caller reached the site over HTTPS: PUBLIC_URL's scheme when it is set (the proxy in
 * front decides), else, behind a trusted proxy, the X-Forwarded-Proto it sets, else the socket's.
 */
export function servedOverHttps(c: Context<AppEnv>, config: Config): boolean {
  if (config.publicUrl) return config.publicUrl.startsWith('https://');
  const forwarded = config.trustProxy ? requestHeader(c, 'x-forwarded-proto') : undefined;
  // The request's own URL starts with its scheme: no need to parse it (every answer asks this).
  return forwarded === undefined ? c.req.url.startsWith('https:') : forwarded === 'https';
}
