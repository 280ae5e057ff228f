import * as RadixDialog from '@radix-ui/react-dialog';
import type { RefObject } from 'react';
import { Link, NavLink } from 'react-router';
import type { User } from '../../shared/answers/accounts';
import { userInitials } from '../lib/session';
import { accountLinks, adminLink, drawerExtraLinks, primaryLinks } from './nav-links';

type MobileMenuProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: User | null;
  onLogout: () => void;
  /** The hamburger button, which gets focus back when the menu closes. */
  trigger: RefObject<HTMLButtonElement | null>;
};

/** The phone's menu drawer (Radix: focus trap, Escape, outside click). Loaded on first open. */
export function MobileMenu({ open, onOpenChange, user, onLogout, trigger }: MobileMenuProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          id="mobile-menu"
          className="drawer"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // The button that opened it is not a Radix Trigger (it renders before this part loads).
            event.preventDefault();
            trigger.current?.focus();
          }}
        >
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
              if ((event.target as HTMLElement).closest('a')) onOpenChange(false);
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
                <button type="button" className="drawer-link drawer-button" onClick={onLogout}>
                  Log out
                </button>
                <p className="drawer-badge">
                  <span className="account-badge" aria-hidden="true">
                    {userInitials(user)}
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
  );
}
