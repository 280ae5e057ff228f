import * as RadixDialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useLoginDialog } from '../features/accounts/login-dialog-store';
import { useLogout, useUser } from '../lib/session';
import { KeepSavedMusicDialog } from '../offline/logout-dialog';
import { useSite } from '../lib/site';
import { Logo } from '../ui/logo';
import { AccountMenu, initials } from './account-menu';
import { accountLinks, adminLink, drawerExtraLinks, primaryLinks } from './nav-links';

export function Header() {
  const user = useUser();
  const { siteName } = useSite();
  const showLogin = useLoginDialog((state) => state.show);
  const logout = useLogout();
  const [drawerOpen, setDrawerOpen] = useState(false);

  const [askingAboutSavedMusic, setAskingAboutSavedMusic] = useState(false);

  const logOut = async () => {
    setDrawerOpen(false);
    // Saved music outlives the session only if its owner says so. The store loads on demand.
    const { deviceOwner, savedAlbumCount } = await import('../offline/offline-db');
    if (user && (await savedAlbumCount(deviceOwner(user)).catch(() => 0)) > 0) setAskingAboutSavedMusic(true);
    else logout.mutate();
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
            <div className="desktop-only">
              <AccountMenu user={user} onLogout={() => void logOut()} />
            </div>
          ) : (
            <button type="button" className="button button-primary desktop-only" onClick={showLogin}>
              Log in
            </button>
          )}
          <RadixDialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
            <RadixDialog.Trigger className="hamburger mobile-only" aria-label="Open menu">
              <span />
              <span />
              <span />
            </RadixDialog.Trigger>
            <RadixDialog.Portal>
              <RadixDialog.Overlay className="dialog-overlay" />
              <RadixDialog.Content className="drawer" aria-describedby={undefined}>
                <div className="drawer-top">
                  <RadixDialog.Title className="drawer-title">Menu</RadixDialog.Title>
                  <RadixDialog.Close className="dialog-close" aria-label="Close menu">
                    ×
                  </RadixDialog.Close>
                </div>
                <nav
                  aria-label="Mobile"
                  className="drawer-nav"
                  onClick={(event) => {
                    if ((event.target as HTMLElement).closest('a')) setDrawerOpen(false);
                  }}
                >
                  {[...primaryLinks, ...drawerExtraLinks].map((link) => (
                    <NavLink key={link.to} to={link.to} className="drawer-link">
                      {link.label}
                    </NavLink>
                  ))}
                  <hr />
                  {user ? (
                    <>
                      {(user.isAdmin ? [...accountLinks, adminLink] : accountLinks).map((link) => (
                        // '/user' must not light up on /user/verify-email.
                        <NavLink key={link.to} to={link.to} end={link.to === '/user'} className="drawer-link">
                          {link.label}
                        </NavLink>
                      ))}
                      <button type="button" className="drawer-link drawer-button" onClick={() => void logOut()}>
                        Log out
                      </button>
                      <p className="drawer-badge">
                        <span className="account-badge" aria-hidden="true">
                          {initials(user)}
                        </span>
                        <span>{user.email}</span>
                      </p>
                    </>
                  ) : (
                    <div className="drawer-auth">
                      <Link to="/signup" className="button button-secondary">
                        Sign up
                      </Link>
                      <Link to="/login" className="button button-primary">
                        Log in
                      </Link>
                    </div>
                  )}
                </nav>
              </RadixDialog.Content>
            </RadixDialog.Portal>
          </RadixDialog.Root>
        </div>
      </div>
      <KeepSavedMusicDialog
        open={askingAboutSavedMusic}
        onClose={() => setAskingAboutSavedMusic(false)}
        onLogout={() => logout.mutate()}
        onRemove={async () => {
          const { deviceOwner, removeSavedMusicOf } = await import('../offline/offline-db');
          if (user) await removeSavedMusicOf(deviceOwner(user));
        }}
      />
    </header>
  );
}
