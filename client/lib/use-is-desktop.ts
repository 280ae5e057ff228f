import { useSyncExternalStore } from 'react';

/** Desktop widths start here (spec part 1 section 9), as styles.css's .desktop-only does. */
const desktopQuery = '(min-width: 1024px)';

function subscribeToDesktop(onChange: () => void) {
  const list = window.matchMedia(desktopQuery);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * Whether the window is desktop-wide, following resizes: for parts drawn only there, whose code
 * then loads only there (the promo, the account menu), not on a phone's first page.
 */
export function useIsDesktop(): boolean {
  return useSyncExternalStore(subscribeToDesktop, isDesktopWide);
}

/** Whether the window is desktop-wide at this moment. */
export function isDesktopWide(): boolean {
  return window.matchMedia(desktopQuery).matches;
}
