import { Navigate, Outlet, useLocation } from 'react-router';
import { currentPath, fromState } from '../lib/return-to';
import { isLeavingSessionFrom, useSessionSettled, useUser, wasJustSignedUp } from '../lib/session';
import { Spinner } from '../ui/spinner';

// Access rules of spec part 1 section 2.

/** Login required: a guest goes to /login and comes back here afterwards. */
export function RequireUser() {
  const user = useUser();
  const settled = useSessionSettled();
  const location = useLocation();
  // A user remembered from before a reload paints at once; if the server says the session ended,
  // the user is cleared and this guard sends them to log in.
  if (user) return <Outlet />;
  if (isLeavingSessionFrom(location.pathname)) return <Navigate to="/" replace />;
  if (!settled) return <Spinner label="Checking your session" />;
  return <Navigate to="/login" replace state={{ from: currentPath(location) }} />;
}

/** Login plus a verified email (DESIGN.md section 4): otherwise to the verify page, then back. */
export function RequireVerifiedEmail() {
  const user = useUser();
  const location = useLocation();
  if (user && !user.isEmailVerified) {
    return <Navigate to="/user/verify-email" replace state={{ from: currentPath(location) }} />;
  }
  return <RequireUser />;
}

/** Admins only (spec part 2 section 2): anyone else is sent home. */
export function RequireAdmin() {
  const user = useUser();
  if (user && !user.isAdmin) return <Navigate to="/" replace />;
  return <RequireUser />;
}

/** Where a new account goes first (DESIGN.md section 4: the post-signup route). */
const POST_SIGNUP_ROUTE = '/user/verify-email';

/**
 * Login, sign-up and reset pages redirect a logged-in user away: to `from` (the page that sent
 * them to log in) or home; right after a sign-up, to the verify page, carrying `from` along. The
 * session check settles first: a user remembered from before a reload may have been logged out
 * elsewhere meanwhile, and must be able to log in again rather than bounce home (issue 9).
 */
export function GuestOnly() {
  const user = useUser();
  const settled = useSessionSettled();
  const location = useLocation();
  if (!user) return <Outlet />;
  if (!settled) return <Spinner label="Checking your session" />;
  const from = fromState(location);
  if (wasJustSignedUp()) return <Navigate to={POST_SIGNUP_ROUTE} replace state={{ from }} />;
  return <Navigate to={from ?? '/'} replace />;
}
