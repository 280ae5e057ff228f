import { useOnline } from '../lib/use-online';

/**
 * What a page shows while its data loads. With no network a query waits for the connection
 * (client/lib/query-client.ts), so instead of spinning the page says plainly what it needs.
 */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  const online = useOnline();
  if (!online) {
    return (
      <div className="spinner-wrap spinner-offline" role="status">
        <p>You’re offline. This page needs a connection; it loads as soon as you’re back online.</p>
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
