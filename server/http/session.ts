import type { Context, MiddlewareHandler } from 'hono';
import { serverMessages } from '../../shared/api';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import { createSession, deleteSession, findLiveSession, SESSION_TTL_MS } from '../infra/security/session-store';
import type { Session } from '../deps';
import type { AppEnv } from './context';
import { answerHeadersOf } from './answer-headers';
import { requestHeader } from './request-header';
import { cookiesNamed } from './request-cookies';
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
  const answer = answerHeadersOf(c);
  if (only !== 'hint only') answer.setCookie(SESSION_COOKIE, id, { ...options, httpOnly: true });
  // Readable by the page, and meaning only "ask GET /api/user" (shared/constants.ts).
  answer.setCookie(SIGNED_IN_HINT_COOKIE, '1', options);
}

function clearCookies(c: Context<AppEnv>) {
  const answer = answerHeadersOf(c);
  answer.deleteCookie(SESSION_COOKIE, { path: '/' });
  answer.deleteCookie(SIGNED_IN_HINT_COOKIE, { path: '/' });
}

/**
 * Loads the session named by the cookie. A cookie that names no live session (expired, logged
 * out elsewhere, forged) is removed, and the response says `x-logged-out: true` so the client
 * drops the user it holds (spec part 1 section 4). The cookies go on the answer whatever it is
 * (answer-headers.ts); a handler that starts a session (login) replaces them with its own.
 */
export function readSession(c: Context<AppEnv>): void {
  // The two cookies, read as hono/cookie's getCookie(c, name) reads each (request-cookies.ts).
  const [id, hint] = cookiesNamed(requestHeader(c, 'cookie'), [SESSION_COOKIE, SIGNED_IN_HINT_COOKIE]);
  const hinted = hint !== undefined;
  c.set('session', null);
  if (id) {
    const live = findLiveSession(c.get('deps').db, id);
    if (live) {
      c.set('session', { idHash: live.idHash, user: live.user });
      if (live.renewed) writeCookie(c, id, live.expiresAt);
      // A session started before the hint existed, or whose hint was cleared, gets it back.
      else if (!hinted) writeCookie(c, id, live.expiresAt, 'hint only');
    } else {
      answerHeadersOf(c).fields['x-logged-out'] = 'true';
      clearCookies(c);
    }
  } else if (hinted) {
    // A hint left without its session (the session cookie expired first): the page would keep asking.
    answerHeadersOf(c).deleteCookie(SIGNED_IN_HINT_COOKIE, { path: '/' });
  }
}

/** readSession before the handler, for routes outside the API (the app's pages). */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = (c, next) => {
  readSession(c);
  return next();
};

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
