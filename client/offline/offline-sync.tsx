import { useEffect } from 'react';
import { rememberUserOnDevice, useUser } from '../lib/session';
import { deviceOwner } from './offline-db';
import { resumeSaves, syncSavedAlbums } from './save-album';
import { useOnline } from '../lib/use-online';
import { useSavedAlbums } from './use-offline';

/**
 * Keeps the saved music in step (issue 12): on start and whenever the connection comes back, the
 * logged-in user's saved albums are checked against their library (a refunded or deleted purchase
 * goes) and unfinished saves continue. While this device holds their music, it also remembers who
 * they are, so Your music opens with no network after the app was closed.
 */
export function OfflineSync() {
  const user = useUser();
  const online = useOnline();
  const owner = user ? deviceOwner(user) : undefined;
  const saved = useSavedAlbums(owner);
  const hasSavedMusic = (saved?.length ?? 0) > 0;

  useEffect(() => {
    if (!owner || !online) return;
    void syncSavedAlbums(owner).then(() => resumeSaves(owner));
  }, [owner, online]);

  useEffect(() => {
    if (saved === undefined) return;
    rememberUserOnDevice(hasSavedMusic ? user : null);
  }, [user, saved, hasSavedMusic]);

  return null;
}
