import { useEffect } from 'react';
import { useLocation } from 'react-router';

// Page views and events go to our own server with sendBeacon: no cookies, no third party.

function jsonBlob(payload: unknown): Blob {
  return new Blob([JSON.stringify(payload)], { type: 'application/json' });
}

/** Hands the payload to the browser; falls back to fetch where sendBeacon is missing or refuses. */
function send(path: string, payload: unknown): Promise<unknown> {
  // Offline, a count is not worth a failed request (and a red line in the console) on every page.
  if (!navigator.onLine) return Promise.resolve();
  if (navigator.sendBeacon?.(path, jsonBlob(payload))) return Promise.resolve();
  return fetch(path, { method: 'POST', body: jsonBlob(payload), keepalive: true }).catch(() => undefined);
}

/** Reports a page view on every route change (spec part 1 section 2). */
export function usePageViews() {
  const { pathname } = useLocation();
  useEffect(() => {
    void send('/api/analytics/pageview', { path: pathname });
  }, [pathname]);
}

/**
 * Fires an analytics event; resolves once it is sent, or after `fallbackMs` at the latest so the
 * caller can move on (the spec's 2000 ms fallback).
 */
export function trackEvent(name: string, fallbackMs = 2000): Promise<void> {
  const timeout = new Promise((resolve) => setTimeout(resolve, fallbackMs));
  return Promise.race([send('/api/analytics/event', { name }), timeout]).then(() => undefined);
}
