import { Navigate, Outlet, useLocation } from 'react-router';
import { currentPath, fromState } from '../lib/return-to';
import { useSessionStore } from '../lib/session-store';
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

/** Admins only (spec part 2 section 2): anyone else is sent home. */
export function RequireAdmin() {
  const user = useSessionStore((state) => state.user);
  if (user && !user.isAdmin) return <Navigate to="/" replace />;
  return <RequireUser />;
}

/** Where a new account goes first (DESIGN.md section 4: the post-signup route). */
const POST_SIGNUP_ROUTE = '/user/verify-email';

/**
 * Login, sign-up and reset pages redirect a logged-in user away: to `from` (the page that sent
 * them to log in) or home; right after a sign-up, to the verify page, carrying `from` along.
 */
export function GuestOnly() {
  const user = useSessionStore((state) => state.user);
  const justSignedUp = useSessionStore((state) => state.justSignedUp);
  const location = useLocation();
  if (!user) return <Outlet />;
  const from = fromState(location);
  if (justSignedUp) return <Navigate to={POST_SIGNUP_ROUTE} replace state={{ from }} />;
  return <Navigate to={from ?? '/'} replace />;
}
