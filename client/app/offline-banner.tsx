import { useOnline } from '../lib/use-online';
import '../offline/offline.css';

/** Says plainly that there is no connection, and what still works. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-banner" role="status">
      You’re offline. Music saved on this device still plays; other pages need a connection.
    </p>
  );
}
