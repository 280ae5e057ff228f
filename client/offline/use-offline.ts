import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { offlineDb, type SavedAlbum, type SavedTrack } from './offline-db';

// What pages read of the offline store. Dexie's live queries follow changes made in any tab, so a
// save started in one tab shows its progress in all of them.

/** The saved album, null when it is not saved, undefined while the store is read. */
export function useSavedAlbum(projectId: number): SavedAlbum | null | undefined {
  return useLiveQuery(async () => (await offlineDb.albums.get(projectId)) ?? null, [projectId]);
}

/** The album's saved (or saving) tracks by track id. */
export function useSavedTracks(projectId: number): Map<number, SavedTrack> | undefined {
  return useLiveQuery(
    async () =>
      new Map(
        (await offlineDb.tracks.where('projectId').equals(projectId).toArray()).map((track) => [track.trackId, track]),
      ),
    [projectId],
  );
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

export type StorageFigures = { savedBytes: number; usageBytes?: number; quotaBytes?: number };

/** What the saved music takes, and what the browser says is used and left, kept current. */
export function useStorageFigures(): StorageFigures | undefined {
  const savedBytes = useLiveQuery(
    async () => (await offlineDb.albums.toArray()).reduce((sum, album) => sum + album.receivedBytes, 0),
    [],
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

/** 1.2 MB, 340 KB, 2.1 GB: sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
