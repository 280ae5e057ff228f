import { Link } from 'react-router';

type TabLinksProps = { label: string; tabs: readonly { to: string; label: string }[]; current: string };

/** Tabs that are pages: links marked aria-current, so the URL decides the tab (spec: /browse, /music, /admin). */
export function TabLinks({ label, tabs, current }: TabLinksProps) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <Link key={tab.to} className="tab" to={tab.to} aria-current={tab.to === current ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
