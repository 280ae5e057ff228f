import { useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { currentPath, fromState } from '../features/session/return-to';
import { useSessionStore } from '../features/session/session-store';
import { Spinner } from '../ui/spinner';

// Access rules of spec part 1 section 2.

/** Login required: a guest goes to /login and comes back here afterwards. */
export function RequireUser() {
  const user = useSessionStore((state) => state.user);
  const confirmed = useSessionStore((state) => state.confirmed);
  const location = useLocation();
  if (user) return <Outlet />;
  if (!confirmed) return <Spinner label="Checking your session" />;
  return <Navigate to="/login" replace state={{ from: currentPath(location) }} />;
}

/** Login plus a verified email (DESIGN.md section 4): otherwise to the verify page, then back. */
export function RequireVerifiedEmail() {
  const user = useSessionStore((state) => state.user);
  const location = useLocation();
  if (user && !user.isEmailVerified) {
    return <Navigate to="/user/verify-email" replace state={{ from: currentPath(location) }} />;
  }
  return <RequireUser />;
}

type GuestHandle = { afterAuth?: string };

/**
 * Login, sign-up and reset pages redirect a logged-in user away. Someone who arrives logged in
 * goes home (or to `from`); someone who logs in or signs up here goes where the page says
 * (`handle.afterAuth`, e.g. sign-up → verify email), carrying `from` along.
 */
export function GuestOnly() {
  const user = useSessionStore((state) => state.user);
  const location = useLocation();
  const matches = useMatches();
  const [arrivedLoggedIn] = useState(() => user !== null);
  if (!user) return <Outlet />;
  const from = fromState(location);
  const afterAuth = (matches.at(-1)?.handle as GuestHandle | undefined)?.afterAuth;
  if (!arrivedLoggedIn && afterAuth) return <Navigate to={afterAuth} replace state={{ from }} />;
  return <Navigate to={from ?? '/'} replace />;
}
