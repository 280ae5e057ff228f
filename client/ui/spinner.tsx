import { useOnline } from '../lib/use-online';
import { OfflineNotice } from './offline-notice';

/**
 * What a page shows while its data loads. With no network a query waits for the connection
 * (client/lib/query-client.ts), so instead of spinning the page says plainly what it needs, and
 * what still works.
 */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  const online = useOnline();
  if (!online) {
    return (
      <div className="spinner-wrap spinner-offline">
        <OfflineNotice />
      </div>
    );
  }
  return (
    <div className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
