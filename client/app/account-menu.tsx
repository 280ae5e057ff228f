import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import type { User } from '../../shared/answers/accounts';
import { userInitials } from '../lib/session';
import { accountLinks, adminLink } from './nav-links';

/** The account badge and its dropdown; Radix closes it on Escape and outside clicks. */
export function AccountMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const links = user.isAdmin ? [...accountLinks, adminLink] : accountLinks;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="account-badge">
        {/* The initials are an avatar, not a label: screen readers get the words instead. */}
        <span aria-hidden="true">{userInitials(user)}</span>
        <span className="visually-hidden">Account menu for {user.email}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <DropdownMenu.Label className="menu-label">{user.email}</DropdownMenu.Label>
          {links.map((link) => (
            <DropdownMenu.Item key={link.to} asChild className="menu-item">
              <Link to={link.to}>{link.label}</Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={onLogout}>
            Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
