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

/** The ids of the tracks each of `owner`'s saved albums has on this device, by album. */
export function useSavedTrackIds(owner: string | undefined): Map<number, Set<number>> | undefined {
  return useLiveQuery(async () => {
    const byAlbum = new Map<number, Set<number>>();
    if (owner === undefined) return byAlbum;
    const projectIds = await offlineDb.albums.where('owner').equals(owner).primaryKeys();
    const tracks = await offlineDb.tracks.where('projectId').anyOf(projectIds).toArray();
    for (const track of tracks) {
      const ids = byAlbum.get(track.projectId) ?? new Set<number>();
      ids.add(track.trackId);
      byAlbum.set(track.projectId, ids);
    }
    return byAlbum;
  }, [owner]);
}

export type StorageFigures = {
  savedBytes: number;
  usageBytes?: number;
  quotaBytes?: number;
  /** Whether the browser keeps this site's storage when space runs low (undefined: it cannot say). */
  persisted?: boolean;
};

/** What `owner`'s saved music takes, and what the browser says is used and left, kept current. */
export function useStorageFigures(owner: string | undefined): StorageFigures | undefined {
  // A change of quality under way holds both copies: both count.
  const savedBytes = useLiveQuery(
    async () =>
      owner === undefined
        ? 0
        : (await offlineDb.albums.where('owner').equals(owner).toArray()).reduce(
            (sum, album) => sum + album.receivedBytes + (album.switching?.receivedBytes ?? 0),
            0,
          ),
    [owner],
  );
  const [browser, setBrowser] = useState<{ estimate?: StorageEstimate; persisted?: boolean }>({});
  useEffect(() => {
    let current = true;
    // Asked again as the saved bytes change: the first save is when persistence is asked for
    // (save-album.ts), and the browser's answer may change with the site's use.
    void Promise.all([
      navigator.storage?.estimate?.().catch(() => undefined),
      navigator.storage?.persisted?.().catch(() => undefined),
    ]).then(([estimate, persisted]) => current && setBrowser({ estimate, persisted }));
    return () => {
      current = false;
    };
  }, [savedBytes]);
  if (savedBytes === undefined) return undefined;
  return {
    savedBytes,
    usageBytes: browser.estimate?.usage,
    quotaBytes: browser.estimate?.quota,
    persisted: browser.persisted,
  };
}
