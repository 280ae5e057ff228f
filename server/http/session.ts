import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { serverMessages } from '../../shared/api';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import { createSession, deleteSession, findLiveSession, SESSION_TTL_MS } from '../infra/security/session-store';
import type { Session } from '../deps';
import type { AppEnv } from './context';
import { servedOverHttps } from './site-url';
import { forbidden, unauthenticated } from '../errors';

export const SESSION_COOKIE = 'soundcause_session';

function writeCookie(c: Context<AppEnv>, id: string, expiresAt: Date, only?: 'hint only') {
  const options = {
    sameSite: 'Lax',
    secure: servedOverHttps(c, c.get('deps').config),
    path: '/',
    expires: expiresAt,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  } as const;
  if (only !== 'hint only') setCookie(c, SESSION_COOKIE, id, { ...options, httpOnly: true });
  // Readable by the page, and meaning only "ask GET /api/user" (shared/constants.ts).
  setCookie(c, SIGNED_IN_HINT_COOKIE, '1', options);
}

function clearCookies(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  deleteCookie(c, SIGNED_IN_HINT_COOKIE, { path: '/' });
}

/**
 * Loads the session named by the cookie. A cookie that names no live session (expired, logged
 * out elsewhere, forged) is removed, and the response says `x-logged-out: true` so the client
 * drops the user it holds (spec part 1 section 4).
 */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = getCookie(c, SESSION_COOKIE);
  c.set('session', null);
  let dead = false;
  // A hint left without its session (the session cookie expired first): the page would keep asking.
  const staleHint = !id && getCookie(c, SIGNED_IN_HINT_COOKIE) !== undefined;
  if (id) {
    const live = findLiveSession(c.get('deps').db, id);
    if (live) {
      c.set('session', { idHash: live.idHash, user: live.user });
      if (live.renewed) writeCookie(c, id, live.expiresAt);
      // A session started before the hint existed, or whose hint was cleared, gets it back.
      else if (getCookie(c, SIGNED_IN_HINT_COOKIE) === undefined) writeCookie(c, id, live.expiresAt, 'hint only');
    } else {
      dead = true;
    }
  }
  await next();
  if (dead) {
    c.header('x-logged-out', 'true');
    // A handler that started a new session (login) has replaced the cookie; keep that one.
    if (!c.get('session')) clearCookies(c);
  } else if (staleHint && !c.get('session')) {
    deleteCookie(c, SIGNED_IN_HINT_COOKIE, { path: '/' });
  }
  keepCookiesOutOfSharedCaches(c);
};

/**
 * A response that sets or deletes the session cookie is for this visitor alone. Public audio
 * (previews) is marked cacheable by shared caches, and a page's `no-cache` lets them store it too
 * (to ask again before using it); with a Set-Cookie on it, a proxy that stores it could hand one
 * visitor's session to the next. Such a response becomes private.
 */
function keepCookiesOutOfSharedCaches(c: Context<AppEnv>) {
  const headers = c.res.headers;
  const cacheControl = headers.get('cache-control');
  if (!cacheControl || !headers.has('set-cookie') || /\b(?:private|no-store)\b/.test(cacheControl)) return;
  headers.set(
    'cache-control',
    /\bpublic\b/.test(cacheControl) ? cacheControl.replace(/\bpublic\b/, 'private') : `private, ${cacheControl}`,
  );
}

export function startSession(c: Context<AppEnv>, userId: number): void {
  const { db } = c.get('deps');
  const previous = c.get('session');
  // A new id on every login: a session id planted before login is worthless afterwards.
  if (previous) endStoredSession(c, previous.idHash);
  const { id, expiresAt } = createSession(db, userId);
  writeCookie(c, id, expiresAt);
  const live = findLiveSession(db, id);
  if (live) c.set('session', { idHash: live.idHash, user: live.user });
}

/** The session's row, and what was remembered for it (its stream grants). */
function endStoredSession(c: Context<AppEnv>, idHash: string) {
  const { db, streamGrants } = c.get('deps');
  deleteSession(db, idHash);
  streamGrants.forgetSession(idHash);
}

export function endSession(c: Context<AppEnv>): void {
  const session = c.get('session');
  if (session) endStoredSession(c, session.idHash);
  c.set('session', null);
  clearCookies(c);
}

export function requireSession(c: Context<AppEnv>): Session {
  const session = c.get('session');
  if (!session) throw unauthenticated(serverMessages.loginRequired);
  return session;
}

export function requireVerifiedSession(c: Context<AppEnv>): Session {
  const session = requireSession(c);
  if (!session.user.isEmailVerified) throw forbidden(serverMessages.verifiedEmailRequired);
  return session;
}

export function requireAdminSession(c: Context<AppEnv>): Session {
  const session = requireSession(c);
  if (!session.user.isAdmin) throw forbidden(serverMessages.adminRequired);
  return session;
}
