import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/**
 * A request header by its lower-case name, read from what Node's parser made of the request when
 * the app is served by @hono/node-server: its web Headers stand-in checks the name and the value
 * again and lower-cases the name on every read, and the few headers every request reads (its id,
 * the encodings it accepts, its cookies) cost an API request more that way than its handler's
 * work (issue 24). Node has already refused a value with a line break or a NUL in it, trimmed
 * it, and joined repeated headers as the web Headers do (cookies with "; "). In-process requests
 * (tests calling app.request) have no Node request and are read through Hono.
 */
export function requestHeader(c: Context, lowerCaseName: Lowercase<string>): string | undefined {
  // What @hono/node-server passes as the app's env; nothing in-process.
  const env: Partial<HttpBindings> | undefined = c.env;
  const incoming = env?.incoming;
  if (incoming === undefined) return c.req.header(lowerCaseName);
  const value = incoming.headers[lowerCaseName];
  return typeof value === 'string' ? value : undefined;
}
