import type { Context } from 'hono';
import type { AppEnv } from './context';

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
