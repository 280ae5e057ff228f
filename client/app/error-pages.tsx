import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { messages } from '../../shared/messages';
import { usePageTitle } from '../lib/site';
import { Alert } from '../ui/alert';

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

/** Errors inside a page: the layout stays, the page shows a generic alert. */
export function RouteErrorAlert() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <div className="page narrow">
      <Alert tone="error" title="Something went wrong">
        {messages.generic}
      </Alert>
    </div>
  );
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
