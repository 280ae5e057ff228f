import { useEffect } from 'react';
import { rememberUserOnDevice, reloadUser, useConfirmedUser, useUser } from '../lib/session';
import { deviceOwner, setDeviceUser } from './offline-db';
import { resumeSaves, syncSavedAlbums } from './save-album';
import { useOnline } from '../lib/use-online';
import { rememberDeviceHoldsMusic } from './holds-music';
import { useSavedAlbumCount, useSavedAlbums } from './use-offline';

/**
 * Keeps the saved music in step (issue 12): once the server has confirmed the session, and
 * whenever the connection comes back, the user's saved albums are checked against their library
 * (a refunded or deleted purchase goes) and unfinished saves continue. A user known only from
 * storage (a reload before GET /api/user answers, no network, a session ended elsewhere) changes
 * nothing on the device. While this device holds their music it also remembers who they are, so
 * Your music opens with no network after the app was closed.
 */
export function OfflineSync() {
  const user = useUser();
  const confirmed = useConfirmedUser();
  const online = useOnline();
  const owner = user ? deviceOwner(user) : undefined;
  const confirmedOwner = confirmed ? deviceOwner(confirmed) : undefined;
  const saved = useSavedAlbums(owner);
  const hasSavedMusic = (saved?.length ?? 0) > 0;
  const albumsOnDevice = useSavedAlbumCount();

  // Whether the next page load runs this at once (client/app/layout.tsx).
  useEffect(() => {
    if (albumsOnDevice !== undefined) rememberDeviceHoldsMusic(albumsOnDevice > 0);
  }, [albumsOnDevice]);

  // The service worker serves saved music to this account only.
  useEffect(() => {
    void setDeviceUser(owner ?? null).catch(() => undefined);
  }, [owner]);

  // Back online after starting without a network: ask the server who this is (a request already
  // on its way is shared, not repeated).
  useEffect(() => {
    if (online && owner && !confirmedOwner) void reloadUser().catch(() => undefined);
  }, [online, owner, confirmedOwner]);

  useEffect(() => {
    if (!confirmedOwner || !online) return;
    void syncSavedAlbums(confirmedOwner)
      .catch(() => undefined)
      .then(() => resumeSaves(confirmedOwner));
  }, [confirmedOwner, online]);

  useEffect(() => {
    if (saved === undefined) return;
    rememberUserOnDevice(hasSavedMusic ? user : null);
  }, [user, saved, hasSavedMusic]);

  return null;
}
