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

/**
 * The host of the page that opened this visit ('' for none: an address typed, a bookmark, an app),
 * told once, with the first page view; never the page's address (issue 29: where visits came from).
 */
let landing: string | undefined = (() => {
  try {
    return document.referrer ? new URL(document.referrer).host : '';
  } catch {
    return '';
  }
})();

/** Reports a page view on every route change (spec part 1 section 2). */
export function usePageViews() {
  const { pathname } = useLocation();
  useEffect(() => {
    const referrer = landing;
    landing = undefined;
    void send('/api/analytics/pageview', referrer === undefined ? { path: pathname } : { path: pathname, referrer });
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
