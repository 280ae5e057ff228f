import { useEffect, useRef, useState } from 'react';
import { Workbox } from 'workbox-window';
import { usePlayingHere } from '../player/playing-here';

/**
 * Registers the service worker and, when a new version has been deployed and is waiting, offers
 * to reload into it. Mounted once the first page has settled (layout.tsx), so the worker's
 * precache does not compete with the first page for a phone's bandwidth. The new worker takes
 * over only when the user agrees, so a page never runs old code against new files.
 */
export function UpdatePrompt() {
  const workbox = useRef<Workbox | null>(null);
  const [waiting, setWaiting] = useState(false);

  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => setWaiting(true));
    // A browser that refuses a service worker (disabled by policy, a private window, no storage)
    // keeps the site working online, with no offline copy and no update prompt: nothing to report.
    wb.register().catch(() => undefined);
    workbox.current = wb;
    // Look for a new version when the app comes back to the foreground.
    // Offline, the check fails: the next return to the foreground tries again.
    const check = () => document.visibilityState === 'visible' && wb.update().catch(() => undefined);
    document.addEventListener('visibilitychange', check);
    return () => document.removeEventListener('visibilitychange', check);
  }, []);

  // A reload would cut off the music: an accepted update waits until this tab is not playing.
  const playingHere = usePlayingHere();
  const [accepted, setAccepted] = useState(false);
  useEffect(() => {
    if (!accepted || playingHere) return;
    // Reload once the waiting worker has taken over, so the page runs the new version's files.
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    workbox.current?.messageSkipWaiting();
  }, [accepted, playingHere]);

  if (!waiting) return null;
  if (accepted) {
    return (
      <div className="update-prompt" role="status">
        <p>The new version loads when the music stops.</p>
      </div>
    );
  }
  return (
    <div className="update-prompt" role="status">
      <p>A new version of the site is available.</p>
      <button type="button" className="button button-primary" onClick={() => setAccepted(true)}>
        Reload
      </button>
      <button type="button" className="button button-ghost" onClick={() => setWaiting(false)}>
        Later
      </button>
    </div>
  );
}
