import type { Context } from 'hono';
import { generateCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from './context';

// What the middleware add to every answer (its request id, the session's cookies, the API's
// default cache policy, the security headers) is collected here before the answer exists, as
// plain fields. A JSON answer is then made whole in one step with them (compression.ts), and no
// middleware reads or changes its headers after the handler: touching a finished answer's
// headers turns @hono/node-server's light answer, whose plain fields go straight to Node, into a
// fetch Headers object that is built, sorted and copied again (a quarter of an API request's
// CPU, issue 24). Any other answer (a page, a file, a stream) gets the same fields afterwards
// (`finishAnswer`).

export class AnswerHeaders {
  /** `dataSecurity`: the security headers of a JSON answer to this request (security-headers.ts). */
  constructor(readonly dataSecurity: Readonly<Record<string, string>>) {}

  /** Lower-case names. */
  readonly fields: Record<string, string> = {};
  /**
   * A Set-Cookie line per cookie name: a later line for the same cookie replaces the earlier.
   * Made with the first cookie: nearly every answer sets none, and a Map a request is garbage.
   */
  private cookieLines: Map<string, string> | undefined;
  /** The cache policy of an answer whose handler gives none (the API's: app.ts). */
  defaultCacheControl: string | undefined;

  setCookie(name: string, value: string, options: CookieOptions): void {
    (this.cookieLines ??= new Map()).set(name, generateCookie(name, value, options));
  }

  /** The Set-Cookie lines, in the order their cookies were first set; none for most answers. */
  setCookieLines(): Iterable<string> {
    return this.cookieLines?.values() ?? [];
  }

  get setsCookies(): boolean {
    return this.cookieLines !== undefined;
  }

  /** Deletes the browser's copy: the same cookie, empty, already expired (as hono/cookie does). */
  deleteCookie(name: string, options: CookieOptions): void {
    this.setCookie(name, '', { ...options, maxAge: 0 });
  }
}

export const answerHeadersOf = (c: Context<AppEnv>): AnswerHeaders => c.get('answerHeaders');

/**
 * A response that sets or deletes a cookie is for this visitor alone. Public audio (previews) is
 * marked cacheable by shared caches, and a page's `no-cache` lets them store it too (to ask again
 * before using it); with a Set-Cookie on it, a proxy that stores it could hand one visitor's
 * session to the next. Such a response becomes private.
 */
export function privateWhenSettingCookies(cacheControl: string): string {
  if (/\b(?:private|no-store)\b/.test(cacheControl)) return cacheControl;
  return /\bpublic\b/.test(cacheControl) ? cacheControl.replace(/\bpublic\b/, 'private') : `private, ${cacheControl}`;
}

/**
 * The headers of a JSON answer made whole at once: the handler's `own` over the collected fields,
 * then the security headers, which no handler overrides. Plain fields when no cookie is
 * set, which is nearly always; Set-Cookie lines need a Headers object, which keeps them apart.
 */
export function wholeAnswerHeaders(
  collected: AnswerHeaders,
  own: Record<string, string>,
): Record<string, string> | Headers {
  // Object.assign, not an object spread: V8 took the spread's object for one that lives long and
  // made every one in the old generation (a collection's worth of garbage every few seconds).
  const fields: Record<string, string> = Object.assign({}, collected.fields, own, collected.dataSecurity);
  const cacheControl = fields['cache-control'] ?? collected.defaultCacheControl;
  if (cacheControl !== undefined) fields['cache-control'] = cacheControl;
  if (!collected.setsCookies) return fields;
  if (cacheControl !== undefined) fields['cache-control'] = privateWhenSettingCookies(cacheControl);
  const headers = new Headers(fields);
  for (const line of collected.setCookieLines()) headers.append('set-cookie', line);
  return headers;
}

/**
 * Marks answers made whole by `wholeAnswerHeaders`: nothing is left to add to them. A property,
 * not a WeakSet: every entry of a weak collection is work for each young-generation collection,
 * which with one entry per request cost more than all the headers saved.
 */
const WHOLE = Symbol('answer made whole');

export function madeWhole(response: Response): Response {
  (response as Response & { [WHOLE]?: true })[WHOLE] = true;
  return response;
}

export const isWhole = (response: Response): boolean => WHOLE in response;

/** Gives an answer that was not made whole the collected fields, cookies and `last`. */
export function finishAnswer(headers: Headers, collected: AnswerHeaders, last: Record<string, string>): void {
  for (const name in collected.fields) headers.set(name, collected.fields[name]!);
  for (const name in last) headers.set(name, last[name]!);
  if (collected.defaultCacheControl !== undefined && !headers.has('cache-control')) {
    headers.set('cache-control', collected.defaultCacheControl);
  }
  if (!collected.setsCookies) return;
  for (const line of collected.setCookieLines()) headers.append('set-cookie', line);
  const cacheControl = headers.get('cache-control');
  if (cacheControl) headers.set('cache-control', privateWhenSettingCookies(cacheControl));
}
