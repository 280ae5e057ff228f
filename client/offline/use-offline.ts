import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useUser } from '../lib/session';
import { deviceOwner, offlineDb, type SavedAlbum, type SavedTrack } from './offline-db';

// What pages read of the offline store. Dexie's live queries follow changes made in any tab, so a
// save started in one tab shows its progress in all of them.

/**
 * The album as saved on this device by the logged-in account; null when it is not saved (or
 * another account saved it), undefined while the store is read.
 */
export function useSavedAlbum(projectId: number): SavedAlbum | null | undefined {
  const owner = useDeviceOwner();
  return useLiveQuery(async () => {
    const album = await offlineDb.albums.get(projectId);
    return album && album.owner === owner ? album : null;
  }, [projectId, owner]);
}

/** The album's saved (or saving) tracks by track id, when the logged-in account saved it. */
export function useSavedTracks(projectId: number): Map<number, SavedTrack> | undefined {
  const owner = useDeviceOwner();
  return useLiveQuery(async () => {
    const album = await offlineDb.albums.get(projectId);
    if (!album || album.owner !== owner) return new Map<number, SavedTrack>();
    const tracks = await offlineDb.tracks.where('projectId').equals(projectId).toArray();
    return new Map(tracks.map((track) => [track.trackId, track]));
  }, [projectId, owner]);
}

/** The key the logged-in account's saved music is filed under. */
function useDeviceOwner(): string | undefined {
  const user = useUser();
  return user ? deviceOwner(user) : undefined;
}

/** The albums `owner` saved on this device, most recently saved first. */
export function useSavedAlbums(owner: string | undefined): SavedAlbum[] | undefined {
  return useLiveQuery(
    async () =>
      owner === undefined
        ? []
        : (await offlineDb.albums.where('owner').equals(owner).toArray()).sort((a, b) => b.savedAt - a.savedAt),
    [owner],
  );
}

/** How many albums this device holds, whoever saved them. */
export function useSavedAlbumCount(): number | undefined {
  return useLiveQuery(() => offlineDb.albums.count(), []);
}

export type StorageFigures = { savedBytes: number; usageBytes?: number; quotaBytes?: number };

/** What `owner`'s saved music takes, and what the browser says is used and left, kept current. */
export function useStorageFigures(owner: string | undefined): StorageFigures | undefined {
  const savedBytes = useLiveQuery(
    async () =>
      owner === undefined
        ? 0
        : (await offlineDb.albums.where('owner').equals(owner).toArray()).reduce(
            (sum, album) => sum + album.receivedBytes,
            0,
          ),
    [owner],
  );
  const [estimate, setEstimate] = useState<StorageEstimate>();
  useEffect(() => {
    let current = true;
    void navigator.storage
      ?.estimate?.()
      .then((figures) => current && setEstimate(figures))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [savedBytes]);
  if (savedBytes === undefined) return undefined;
  return { savedBytes, usageBytes: estimate?.usage, quotaBytes: estimate?.quota };
}
