import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useLoginDialog } from '../features/accounts/login-dialog-store';
import { usePageViews } from '../lib/analytics';
import { AfterPageSettled, loadInIdleTurns, useFirstPageDrawn } from '../lib/page-settled';
import { useHasBeenTrue } from '../lib/use-has-been-true';
import { useUser } from '../lib/session';
import { deviceHoldsSavedMusic } from '../offline/holds-music';
import { PlayerDock } from '../player/player-dock';
import { WithPromo } from '../ui/promo-aside';
import { FlashMessage } from './flash-message';
import { Footer } from './footer';
import { Header } from './header';
import { OfflineBanner } from './offline-banner';
import { TopLoader } from './top-loader';

// Kept off the first page's path (issue 13): the login dialog (and its form library) loads when it
// is first opened; the service worker's update prompt once the first page has settled, and the
// offline store's sync (Dexie) then too for a logged-in user on a device that holds saved music.
// With nothing saved here there is nothing to keep in step until they act (a save starts with a
// click), and then in a quiet moment after it, not against what the act started (a Play): the
// sync's reads of the store were a fifth of Your music's blocking time (issue 24).
const loadOfflineSync = () => import('../offline/offline-sync');
const OfflineSync = lazy(() => loadOfflineSync().then((m) => ({ default: m.OfflineSync })));
const UpdatePrompt = lazy(() => import('./update-prompt').then((m) => ({ default: m.UpdatePrompt })));
const LoginDialog = lazy(() => import('../features/accounts/login-dialog').then((m) => ({ default: m.LoginDialog })));

export function Layout() {
  usePageViews();
  const loginWanted = useHasBeenTrue(useLoginDialog((state) => state.open));
  useFirstPageDrawn();
  const [syncLoaded, setSyncLoaded] = useState(false);
  useEffect(() => loadInIdleTurns(() => loadOfflineSync().then(() => setSyncLoaded(true))), []);
  const user = useUser();
  const syncOffline = user !== null && (syncLoaded || deviceHoldsSavedMusic());
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopLoader />
      <Header />
      <OfflineBanner />
      <main id="main" tabIndex={-1}>
        <FlashMessage />
        <WithPromo>
          <Outlet />
        </WithPromo>
      </main>
      <Footer />
      <PlayerDock />
      {loginWanted && (
        <Suspense fallback={null}>
          <LoginDialog />
        </Suspense>
      )}
      <AfterPageSettled>
        <Suspense fallback={null}>
          <UpdatePrompt />
          {syncOffline && <OfflineSync />}
        </Suspense>
      </AfterPageSettled>
      <ScrollRestoration />
    </div>
  );
}
