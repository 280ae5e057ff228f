import { useSyncExternalStore } from 'react';

// Whether the page's first load has finished (the window's load event): what only matters later
// (the service worker, background sync) waits for it, so it does not compete with the first page.

function subscribe(onChange: () => void) {
  window.addEventListener('load', onChange);
  return () => window.removeEventListener('load', onChange);
}

const isLoaded = () => document.readyState === 'complete';

export function usePageLoaded(): boolean {
  return useSyncExternalStore(subscribe, isLoaded, () => false);
}
