import { useEffect, useState } from 'react';
import { usePageLoaded } from './use-page-loaded';

/**
 * Runs `task` once the page has loaded and the browser has a quiet moment: code a visitor may
 * soon need (a menu, the login form) is fetched then, off the first page's path but ready before
 * the tap that needs it (issue 13).
 */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}

/** True once the page has loaded and then been idle (see whenIdle). */
export function useLoadedAndIdle(): boolean {
  const loaded = usePageLoaded();
  const [idle, setIdle] = useState(false);
  useEffect(() => (loaded && !idle ? whenIdle(() => setIdle(true)) : undefined), [loaded, idle]);
  return idle;
}
