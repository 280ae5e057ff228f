import { Outlet, ScrollRestoration } from 'react-router';
import { LoginDialog } from '../features/accounts/login-dialog';
import { usePageViews } from '../lib/analytics';
import { PlayerDock } from '../player/player-bar';
import { WithPromo } from '../ui/promo-aside';
import { FlashMessage } from './flash-message';
import { Footer } from './footer';
import { Header } from './header';
import { TopLoader } from './top-loader';
import { UpdatePrompt } from './update-prompt';

export function Layout() {
  usePageViews();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopLoader />
      <Header />
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
      <ScrollRestoration />
    </div>
  );
}
