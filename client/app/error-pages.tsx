import { queryOptions, useQuery } from '@tanstack/react-query';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { messages } from '../../shared/messages';
import { usePageTitle } from '../lib/site';
import { Alert } from '../ui/alert';
import { isOfflineFailure, OfflineNotice } from '../ui/offline-notice';

/** Root-level error page (spec part 1 section 2). Plain markup: the layout itself may have failed. */
export function RootErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <main className="whoops">
      <h1>Whoops!</h1>
      <p>{messages.generic}</p>
      <a className="button button-primary" href="/">
        Go to the home page
      </a>
    </main>
  );
}

/**
 * Whether a page's code did not load: its lazily loaded chunk, or the styles it needs (Vite's
 * preload). The browsers word it differently, and the same words come for a file that is gone
 * (a new version deployed since this page loaded) as for no network at all.
 */
export function isCodeLoadFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(error.message)
  );
}

/** Whether the server answers at all right now: any answer, even a refusal, says it does. */
const serverReachable = queryOptions({
  queryKey: ['server-reachable'],
  queryFn: () =>
    fetch('/api/health', { cache: 'no-store' }).then(
      () => true,
      () => false,
    ),
  networkMode: 'always',
  retry: false,
  staleTime: 0,
  gcTime: 0,
});

/** A reload asks for the page's code and data afresh: a failed module import is not tried again in place. */
const reload = () => window.location.reload();

/** Errors inside a page: the layout stays, the page shows a generic alert (or, offline, what still works). */
export function RouteErrorAlert() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  // A loader's call that never reached the server (the reset link's check).
  if (isOfflineFailure(error)) return <OfflineErrorPage />;
  if (isCodeLoadFailure(error)) return <CodeLoadFailure error={error} />;
  return <GenericErrorPage error={error} />;
}

function OfflineErrorPage() {
  return (
    <div className="page narrow">
      <OfflineNotice onRetry={reload} />
    </div>
  );
}

function GenericErrorPage({ error }: { error: unknown }) {
  console.error(error);
  return (
    <div className="page narrow">
      <Alert tone="error" title="Something went wrong">
        {messages.generic}
      </Alert>
    </div>
  );
}

/** The page's code did not come: offline, say what still works; online, it is a real failure. */
function CodeLoadFailure({ error }: { error: unknown }) {
  const reachable = useQuery(serverReachable);
  if (reachable.isPending) return null;
  return reachable.data ? <GenericErrorPage error={error} /> : <OfflineErrorPage />;
}

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="page narrow center">
      <h1>Page not found</h1>
      <p>We couldn't find the page you were looking for. It may have moved, or the link may be mistyped.</p>
      <p className="actions">
        <Link className="button button-primary" to="/">
          Go to the home page
        </Link>
        <Link className="button button-secondary" to="/browse">
          Browse music
        </Link>
      </p>
    </div>
  );
}
