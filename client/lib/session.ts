import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiPaths } from '../../shared/api-paths';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import type { User } from '../../shared/answers/accounts';
import { forgetFirstAnswers, takeFirstAnswer } from '../api/first-answers';
import { apiRequest, setLoggedOutListener } from '../api/http';
import { ApiError } from '../api/errors';
import { queryClient } from './query-client';
import { sharedValue, useSharedValue } from './shared-value';

// Who is logged in (spec part 1 section 4). The user lives in one place: react-query's cache under
// sessionKeys.user. A copy in sessionStorage (the spec's) only seeds it, so a reload paints the
// header at once; GET /api/user confirms it, and a 401 clears it. A guest's page does not ask at
// all: the server sets a readable hint cookie beside the HttpOnly session (shared/constants.ts),
// and without it there is nobody to ask about, and no 401 to log in the console.

export const sessionKeys = { user: ['session', 'user'] as const };

const isUserQuery = (key: readonly unknown[]) => key[0] === sessionKeys.user[0] && key[1] === sessionKeys.user[1];

const STORAGE_KEY = 'soundcause-user';

function hasSignedInHint(): boolean {
  return (
    typeof document !== 'undefined' &&
    document.cookie.split('; ').some((c) => c.startsWith(`${SIGNED_IN_HINT_COOKIE}=`))
  );
}

/**
 * Whether a stored copy still has the shape of a user (an older version may have written another).
 * A check by hand rather than userSchema: this runs on every page's first load, before zod is
 * loaded (issue 13); tests/unit/stored-user.test.ts proves it agrees with the schema.
 */
export function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const { firstName, lastName, email, isEmailVerified, isAdmin } = value as Record<string, unknown>;
  const nameOrNull = (name: unknown) => name === null || typeof name === 'string';
  return (
    nameOrNull(firstName) &&
    nameOrNull(lastName) &&
    typeof email === 'string' &&
    typeof isEmailVerified === 'boolean' &&
    (isAdmin === undefined || typeof isAdmin === 'boolean')
  );
}

/** A user kept in `storage` under `key`; undefined when absent, unreadable or stale in shape. */
function readUser(storage: () => Storage, key: string): User | undefined {
  try {
    const stored: unknown = JSON.parse(storage().getItem(key) ?? 'null');
    if (!isStoredUser(stored)) return undefined;
    const { firstName, lastName, email, isEmailVerified, isAdmin } = stored;
    return { firstName, lastName, email, isEmailVerified, ...(isAdmin === undefined ? {} : { isAdmin }) };
  } catch {
    return undefined;
  }
}

/** Keeps (or forgets) the user in `storage`; storage full or disabled only costs a moment's wait. */
function writeUser(storage: () => Storage, key: string, user: User | null) {
  try {
    if (user) storage().setItem(key, JSON.stringify(user));
    else storage().removeItem(key);
  } catch {
    // Without storage the next load asks the server (offline: the app asks for a login).
  }
}

const storedUser = () => readUser(() => sessionStorage, STORAGE_KEY);
const store = (user: User | null) => writeUser(() => sessionStorage, STORAGE_KEY, user);

/**
 * The user kept in localStorage while this device holds their saved music (client/offline), so
 * an app opened with no network still knows whose music it is. Cleared with the saved music and
 * at logout.
 */
const DEVICE_USER_KEY = 'soundcause-offline-user';
const deviceUser = () => readUser(() => localStorage, DEVICE_USER_KEY);
export const rememberUserOnDevice = (user: User | null) => writeUser(() => localStorage, DEVICE_USER_KEY, user);

/**
 * The address of the user the server itself vouched for in this page load (GET /api/user, a
 * login, a sign-up, a profile change), as opposed to the stored copy that paints the header at
 * once or stands in with no network. Only the server's word may take saved music off the device
 * (client/offline): a session that ended elsewhere must not read as "none of this is yours".
 */
const confirmedEmail = sharedValue<string | null>(null);

const confirmUser = (user: User | null) => confirmedEmail.set(user ? user.email.toLowerCase() : null);

let starting: { user: User | null | undefined; at: number } | undefined;

/**
 * Who the page starts with: nobody without the hint; else the server's answer given with the page
 * (as fresh as a fetch); else what this tab or device knew before (stale from the start, shown
 * until the server confirms it).
 */
function startingUser() {
  if (starting) return starting;
  if (!hasSignedInHint()) return (starting = { user: null, at: Date.now() });
  const given = takeFirstAnswer<User>(apiPaths.user);
  if (given) {
    // The server's own answer, given with the page: as good as asking it.
    confirmUser(given);
    return (starting = { user: given, at: Date.now() });
  }
  return (starting = { user: storedUser() ?? deviceUser(), at: 0 });
}

/** Loads the user; null for a guest (no hint: nothing asked) and on a 401. */
async function fetchUser(): Promise<User | null> {
  if (!hasSignedInHint()) return null;
  try {
    const user = await apiRequest(apiPaths.user, 'user');
    confirmUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      confirmUser(null);
      return null;
    }
    // No network: whoever this tab or device last knew, so saved music still opens.
    if (!(error instanceof ApiError)) {
      const known = storedUser() ?? deviceUser();
      if (known) return known;
    }
    throw error;
  }
}

export const userQueryOptions = queryOptions({
  queryKey: sessionKeys.user,
  queryFn: fetchUser,
  staleTime: 60_000,
  retry: 1,
  initialData: () => startingUser().user,
  initialDataUpdatedAt: () => startingUser().at,
});

// The cache is the user; sessionStorage follows it.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'updated' && isUserQuery(event.query.queryKey)) {
    store((event.query.state.data as User | null | undefined) ?? null);
  }
});

let justSignedUp = false;

/** Sets (or clears) the logged-in user everywhere: every page and guard reads it from the cache. */
export function setUser(user: User | null, options: { signedUp?: boolean } = {}) {
  justSignedUp = Boolean(user && options.signedUp);
  if (user) leftFrom = null;
  // Every caller passes the server's answer (a login, a sign-up, a profile change) or null.
  confirmUser(user);
  queryClient.setQueryData(sessionKeys.user, user);
}

/**
 * Set by sign-up only: the guest-only pages then move on to the post-signup route instead of
 * home. Any other change of user clears it.
 */
export const wasJustSignedUp = () => justSignedUp;

/** Nobody is logged in any more: the user and everything loaded for them go. */
function loggedOut() {
  setUser(null);
  rememberUserOnDevice(null);
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== 'site' && !isUserQuery(query.queryKey),
  });
}

// Any response saying the session is dead logs the user out here too (spec part 1 section 4).
setLoggedOutListener(() => {
  if (queryClient.getQueryData(sessionKeys.user)) loggedOut();
});

/** The account badge's letters: the initials of the name, else the email's first letter. */
export function userInitials(user: User): string {
  const fromName = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.trim();
  return (fromName || user.email[0] || '?').toUpperCase();
}

export function useUser(): User | null {
  return useQuery(userQueryOptions).data ?? null;
}

/** The logged-in user once the server has confirmed the session in this page load; null until then. */
export function useConfirmedUser(): User | null {
  const user = useUser();
  const email = useSharedValue(confirmedEmail, null);
  return user && user.email.toLowerCase() === email ? user : null;
}

/**
 * Whether this page load knows who is logged in: the server answered (or could not be reached),
 * or there is no session to ask about. Guards wait for it before they send anyone away, so a
 * session that ended elsewhere does not make /login bounce home on the stored user (issue 9).
 */
export function useSessionSettled(): boolean {
  const query = useQuery(userQueryOptions);
  // A user the server gave with the page is as good as one it was asked for.
  return query.isFetched || query.isError || !hasSignedInHint() || startingUser().at !== 0;
}

/**
 * Goes home, then forgets the user and everything loaded for them (after logging out or deleting
 * the account). Home first: on a page that needs a login, clearing the user first would let its
 * guard send them to /login instead.
 */
export function useLeaveSession(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    leftFrom = window.location.pathname;
    void navigate('/', { replace: true });
    loggedOut();
  }, [navigate]);
}

/** The page the user deliberately left their session on, until someone logs in again. */
let leftFrom: string | null = null;

/**
 * Whether a login-only page is being left because its user logged out (or deleted the account):
 * the router's move home is a transition that the cleared user can overtake, and the page's guard
 * must then send them home too, not to /login.
 */
export const isLeavingSessionFrom = (pathname: string) => leftFrom === pathname;

/** Logs out and goes home (spec part 1 section 4), whether or not the server could be told. */
export function useLogout(): () => void {
  const leaveSession = useLeaveSession();
  return useCallback(() => {
    void apiRequest('/api/logout', 'ok', { method: 'POST' })
      .catch(() => undefined)
      .finally(leaveSession);
  }, [leaveSession]);
}

/**
 * Reloads the user from the server (after verifying the email, say). When the address or its
 * verification changed, what was loaded for the user as they were (the albums an address bought
 * are theirs once it is verified) is asked again, including what came with the page.
 */
export async function reloadUser() {
  const before = queryClient.getQueryData<User | null>(sessionKeys.user);
  const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
  if (before?.email !== user?.email || before?.isEmailVerified !== user?.isEmailVerified) {
    forgetFirstAnswers();
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] !== 'site' && !isUserQuery(query.queryKey),
    });
  }
  return user;
}
