import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoginDialog } from '../features/accounts/login-dialog';
import { usePageViews } from '../lib/analytics';
import { PlayerDock } from '../player/player-bar';
import { WithPromo } from '../ui/promo-aside';
import { FlashMessage } from './flash-message';
import { Footer } from './footer';
import { Header } from './header';
import { OfflineBanner } from './offline-banner';
import { TopLoader } from './top-loader';
import { UpdatePrompt } from './update-prompt';

// The offline store (Dexie) stays off the first page's path: it loads after the page.
const OfflineSync = lazy(() => import('../offline/offline-sync').then((m) => ({ default: m.OfflineSync })));

export function Layout() {
  usePageViews();
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
      <LoginDialog />
      <UpdatePrompt />
      <Suspense fallback={null}>
        <OfflineSync />
      </Suspense>
      <ScrollRestoration />
    </div>
  );
}
