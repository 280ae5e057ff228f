import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NetworkError } from '../api/errors';
import { useUser } from '../lib/session';
import './offline-notice.css';

// What a page says when its data cannot come because the device is offline (issue 22): not the
// spec's 'Something went wrong!', which is about the server, but what still works with no
// connection — the albums saved on this device, in Your music. Every way an offline visitor meets
// a page without its data (a query waiting for the network, a query that failed for want of it, a
// page's code not in the cache) ends here, so the words are the same everywhere.

/** Your music's tab of the albums saved on this device: they play offline. */
const SAVED_MUSIC_PATH = '/music/albums/saved';

/** Whether a call failed because nothing reached the server (not because the server refused). */
export function isOfflineFailure(error: unknown): boolean {
  return error instanceof NetworkError;
}

type OfflineNoticeProps = {
  /**
   * Asks again, for a page that will not load by itself when the connection is back (a failed
   * load, which the browser may not know was offline). Without it the page says it loads by itself.
   */
  onRetry?: () => void;
};

export function OfflineNotice({ onRetry }: OfflineNoticeProps) {
  // Saved music belongs to an account (client/offline): a guest has none to go back to.
  const user = useUser();
  return (
    <div className="offline-notice" role="status">
      <p className="offline-notice-lead">
        <strong>You’re offline.</strong>{' '}
        {user ? (
          <>
            Saved music still plays — open <Link to={SAVED_MUSIC_PATH}>Your music</Link>.
          </>
        ) : (
          'This page needs a connection.'
        )}
      </p>
      {onRetry ? (
        <p className="offline-notice-retry">
          {user && <span>This page needs a connection.</span>}
          <button type="button" className="button button-secondary" onClick={onRetry}>
            Try again
          </button>
        </p>
      ) : (
        <p className="offline-notice-more">This page loads as soon as you’re back online.</p>
      )}
    </div>
  );
}

type LoadFailureProps = {
  error: unknown;
  /** Asks again (the query's refetch). */
  retry: () => unknown;
  /** What the page says when the server failed it: the spec's message. */
  children: ReactNode;
};

/** A page's data did not load: offline, the way to the music that still plays; otherwise its own message. */
export function LoadFailure({ error, retry, children }: LoadFailureProps) {
  if (isOfflineFailure(error)) return <OfflineNotice onRetry={() => void retry()} />;
  return children;
}
