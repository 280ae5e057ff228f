// Link lists of spec part 1 section 2 (Layout), shared by the navbar, drawer and footer.

export const primaryLinks = [
  { to: '/browse', label: 'Browse fundraisers & artists' },
  { to: '/howitworks', label: 'How it works' },
  { to: '/fundraisers/new', label: 'Start a fundraiser' },
] as const;

export const drawerExtraLinks = [
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;

export const accountLinks = [
  { to: '/user', label: 'Account details' },
  { to: '/music', label: 'Your music' },
  { to: '/account/giving', label: 'Giving history' },
  { to: '/artists/user', label: 'Your artists' },
  { to: '/fundraisers/user', label: 'Your fundraisers' },
] as const;

export const adminLink = { to: '/admin', label: 'Admin dashboard' } as const;

export const footerLinks = [
  { to: '/browse', label: 'Browse artists & fundraisers' },
  { to: '/howitworks', label: 'How it works' },
  { to: '/fundraisers/new', label: 'Start a fundraiser' },
  { to: '/for-artists', label: 'For artists' },
  { to: '/about', label: 'About' },
  { to: '/where-the-money-goes', label: 'Where the money goes' },
  { to: '/support', label: 'Donate' },
  { to: '/contact', label: 'Contact us' },
] as const;
