import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useLoginDialog } from '../features/accounts/login-dialog-store';
import { useHasBeenTrue } from '../lib/use-has-been-true';
import { loadInIdleTurns } from '../lib/page-settled';
import { useLogout, userInitials, useUser } from '../lib/session';
import { useSite } from '../lib/site';
import { isDesktopWide, useIsDesktop } from '../lib/use-is-desktop';
import { Logo } from '../ui/logo';
import { primaryLinks } from './nav-links';

// The menus and dialogs behind the header's buttons load on first use (issue 13: Radix stays off
// the first page's path); the buttons themselves are plain and drawn at once. The account menu is
// drawn at desktop widths only (a phone has it in the drawer), so a phone does not load it at all.
const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));
const MobileMenu = lazy(() => import('./mobile-menu').then((m) => ({ default: m.MobileMenu })));
/**
 * The parts a tap on the header may need next at this width, fetched once the visitor acts on the
 * page (lib/page-settled.ts): the account menu on a desktop, the drawer on a phone.
 */
const prefetchMenus = () =>
  loadInIdleTurns(
    isDesktopWide() ? () => import('./account-menu') : () => import('./mobile-menu'),
    () => import('../features/accounts/login-dialog'),
  );

const KeepSavedMusicDialog = lazy(() =>
  import('../offline/logout-dialog').then((m) => ({ default: m.KeepSavedMusicDialog })),
);

export function Header() {
  const user = useUser();
  const { siteName } = useSite();
  const showLogin = useLoginDialog((state) => state.show);
  const logout = useLogout();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerWanted = useHasBeenTrue(drawerOpen);
  const hamburger = useRef<HTMLButtonElement>(null);
  const isDesktop = useIsDesktop();

  const [askingAboutSavedMusic, setAskingAboutSavedMusic] = useState(false);
  useEffect(prefetchMenus, []);
  const askedAboutSavedMusic = useHasBeenTrue(askingAboutSavedMusic);

  const logOut = async () => {
    setDrawerOpen(false);
    // Saved music outlives the session only if its owner says so. The store loads on demand.
    const { deviceOwner, savedAlbumCount } = await import('../offline/offline-db');
    if (user && (await savedAlbumCount(deviceOwner(user)).catch(() => 0)) > 0) setAskingAboutSavedMusic(true);
    else logout();
  };

  return (
    <header className="site-header">
      <div className="header-inner">
        <Link to="/" className="brand" aria-label={`${siteName} home`}>
          <Logo />
          <span className="brand-name">{siteName}</span>
        </Link>
        <nav className="desktop-nav" aria-label="Main">
          {primaryLinks.map((link) => (
            <NavLink key={link.to} to={link.to} className="nav-link">
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          {user ? (
            isDesktop && (
              <div className="desktop-only">
                <Suspense
                  fallback={
                    // The badge as it will look, for the moment the menu's code takes to arrive.
                    <span className="account-badge" aria-hidden="true">
                      {userInitials(user)}
                    </span>
                  }
                >
                  <AccountMenu user={user} onLogout={() => void logOut()} />
                </Suspense>
              </div>
            )
          ) : (
            <button type="button" className="button button-primary desktop-only" onClick={showLogin}>
              Log in
            </button>
          )}
          <button
            ref={hamburger}
            type="button"
            className="hamburger mobile-only"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <span />
            <span />
            <span />
          </button>
          {drawerWanted && (
            <Suspense fallback={null}>
              <MobileMenu
                open={drawerOpen}
                onOpenChange={setDrawerOpen}
                user={user}
                onLogout={() => void logOut()}
                trigger={hamburger}
              />
            </Suspense>
          )}
        </div>
      </div>
      {askedAboutSavedMusic && (
        <Suspense fallback={null}>
          <KeepSavedMusicDialog
            open={askingAboutSavedMusic}
            onClose={() => setAskingAboutSavedMusic(false)}
            onLogout={() => logout()}
            onRemove={async () => {
              const { deviceOwner, removeSavedMusicOf } = await import('../offline/offline-db');
              if (user) await removeSavedMusicOf(deviceOwner(user));
            }}
          />
        </Suspense>
      )}
    </header>
  );
}
