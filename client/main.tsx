import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createRouter } from './app/router';
import { preloadAnswerSchemas } from './api/http';
import { loadInIdleTurns, nextTask } from './lib/page-settled';
import { meetContentSecurityPolicy } from './app/content-security-policy';
import './styles.css';

/**
 * The stylesheets the page loads without holding up its first paint (scripts/deferred-styles-plugin.ts,
 * server/http/first-load.ts), applied now; resolves once they are (or failed: the app still draws).
 */
function applyDeferredStyles(): Promise<unknown> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-deferred]')];
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          link.media = 'all';
          if (link.sheet) return resolve();
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  );
}

/**
 * Resolves once the router has the first page's code (its route is lazy) and has run its loader.
 * Drawn before then, the app would draw its HydrateFallback, nothing, in place of the header and
 * the page's top the HTML drew (server/http/first-view/): a blank screen until the code came, when
 * it came after the entry (issue 24).
 */
function firstPageLoaded(router: ReturnType<typeof createRouter>): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

// Before the app draws and zod loads: what the Content-Security-Policy needs (app/content-security-policy.ts).
meetContentSecurityPolicy();

// Evaluating the app's modules, building the router (its whole route table, matched against the
// address) and the first render are each tens of milliseconds on a phone; run back to back they
// are one long task, during which a tap waits. In turns, the browser answers in between (issue 24).

// The first render as a transition: React then draws the page in slices of a few milliseconds,
// each its own task, instead of one task as long as the whole page (a default update is not
// sliced), so a tap or a key is answered while it draws, and Lighthouse's Total Blocking Time on
// `/` fell by about a third (issue 24).
void Promise.all([applyDeferredStyles(), nextTask()]).then(async () => {
  const router = createRouter();
  await firstPageLoaded(router);
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    ),
  );
});

// The answers' schemas are not needed to draw the first page (its answers came with it); they are
// fetched once the visitor acts on it, ready for the next page's requests (issues 13 and 24).
loadInIdleTurns(preloadAnswerSchemas);
