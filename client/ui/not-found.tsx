import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/site';

type NotFoundProps = {
  /** The heading and the page title: 'Artist not found', say. */
  title: string;
  /** Why it may be missing. */
  children: ReactNode;
  /** Where to go instead; the first is the main way on. */
  links: { to: string; label: string }[];
};

/** A page for something that is not there (or not this visitor's to see), with ways on. */
export function NotFound({ title, children, links }: NotFoundProps) {
  usePageTitle(title);
  return (
    <div className="page narrow center stack">
      <h1>{title}</h1>
      <p>{children}</p>
      <p className="actions">
        {links.map((link, index) => (
          <Link key={link.to} className={`button ${index === 0 ? 'button-primary' : 'button-secondary'}`} to={link.to}>
            {link.label}
          </Link>
        ))}
      </p>
    </div>
  );
}
