import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

type TabLinksProps = { label: string; tabs: readonly { to: string; label: string }[]; current: string };

/**
 * Tabs that are pages: links marked aria-current, so the URL decides the tab (spec: /browse, /music,
 * /admin). On a narrow screen they stay one row that scrolls sideways, with the current tab in view.
 */
export function TabLinks({ label, tabs, current }: TabLinksProps) {
  const currentRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    currentRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  return (
    <nav className="tabs" aria-label={label}>
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
