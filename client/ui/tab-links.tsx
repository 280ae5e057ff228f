import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

type TabLinksProps = { label: string; tabs: readonly { to: string; label: string }[]; current: string };

/**
 * Tabs that are pages: links marked aria-current, so the URL decides the tab (spec: /browse, /music,
 * /admin). On a narrow screen a few share one row, their labels wrapped; more than three make two
 * columns (the admin's four), so no label is cut at the screen's edge.
 */
export function TabLinks({ label, tabs, current }: TabLinksProps) {
  const currentRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    currentRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  return (
    <nav className={tabs.length > 3 ? 'tabs tabs-many' : 'tabs'} aria-label={label}>
      {tabs.map((tab) => (
        <Link
          key={tab.to}
          ref={tab.to === current ? currentRef : undefined}
          className="tab"
          to={tab.to}
          aria-current={tab.to === current ? 'page' : undefined}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
