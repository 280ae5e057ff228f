import { Dexie, type EntityTable } from 'dexie';
import type { LibraryAlbumDetail } from '../../shared/answers/library';

// Music saved on this device (issue 12; DESIGN.md "offline"): one IndexedDB database that the
// pages write and the service worker reads, so /api/tracks/{id}/stream answers from the device.

/** 'saving' while a tab downloads it (or will resume it), 'saved' when every track is whole. */
export type SaveState = 'saving' | 'paused' | 'saved' | 'failed';

export type SavedAlbum = {
  projectId: number;
  projectSlug: string;
  /** Whose library it came from (the account's email, lower case): another account does not see it. */
  owner: string;
  /** The album as the library API answered it, for the album page when there is no network. */
  detail: LibraryAlbumDetail;
  state: SaveState;
  /** Why the last attempt stopped, in words for the page. */
  problem?: string;
  totalBytes: number;
  receivedBytes: number;
  savedAt: number;
};

export type SavedTrack = {
  trackId: number;
  projectId: number;
  /** The versioned stream URL: the same URL the player asks for. */
  src: string;
  /** 0 until the first answer gives the length. */
  size: number;
  received: number;
  contentType: string;
};

/** A piece of a track's bytes, stored as it arrived, so a broken download resumes where it stopped. */
export type TrackChunk = { trackId: number; start: number; blob: Blob };

/** Other answers a saved album needs offline: its cover image and its library JSON. */
export type SavedResponse = { url: string; projectId: number; blob: Blob; contentType: string };

/**
 * Who uses the app on this device now, as the pages know it (client/offline/offline-sync.tsx
 * keeps it current): the service worker, which cannot see the session, serves saved music to the
 * account that saved it and to nobody else (a shared phone, or "Keep and log out").
 */
export type DeviceUser = { key: 'owner'; owner: string | null };

export const offlineDb = new Dexie('soundcause-offline') as Dexie & {
  albums: EntityTable<SavedAlbum, 'projectId'>;
  tracks: EntityTable<SavedTrack, 'trackId'>;
  chunks: EntityTable<TrackChunk, 'trackId'>;
  responses: EntityTable<SavedResponse, 'url'>;
  device: EntityTable<DeviceUser, 'key'>;
};

offlineDb.version(1).stores({
  albums: 'projectId, projectSlug, owner',
  tracks: 'trackId, projectId',
  chunks: '[trackId+start], trackId',
  responses: 'url, projectId',
});
offlineDb.version(2).stores({ device: 'key' });

/** A track's chunks in order (their Blobs are handles: reading the rows does not read the bytes). */
export function trackChunks(trackId: number): Promise<TrackChunk[]> {
  return offlineDb.chunks.where('[trackId+start]').between([trackId, Dexie.minKey], [trackId, Dexie.maxKey]).toArray();
}

/** Removes an album and everything saved for it. */
export async function removeSavedAlbum(projectId: number): Promise<void> {
  await offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.responses],
    async () => {
      const trackIds = (await offlineDb.tracks.where('projectId').equals(projectId).primaryKeys()) as number[];
      await offlineDb.chunks.where('trackId').anyOf(trackIds).delete();
      await offlineDb.tracks.where('projectId').equals(projectId).delete();
      await offlineDb.responses.where('projectId').equals(projectId).delete();
      await offlineDb.albums.delete(projectId);
    },
  );
}

/** Removes every album `owner` saved on this device; other accounts' saved music stays. */
export async function removeSavedMusicOf(owner: string): Promise<void> {
  await offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.responses],
    async () => {
      const projectIds = await offlineDb.albums.where('owner').equals(owner).primaryKeys();
      for (const projectId of projectIds) await removeSavedAlbum(projectId);
    },
  );
}

/** The key saved albums are filed under for an account. */
export const deviceOwner = (user: { email: string }) => user.email.toLowerCase();

/** How many albums `owner` saved on this device. */
export const savedAlbumCount = (owner: string) => offlineDb.albums.where('owner').equals(owner).count();

/** Records who uses the app on this device now (null: nobody is logged in). */
export async function setDeviceUser(owner: string | null): Promise<void> {
  const current = await offlineDb.device.get('owner');
  if (current?.owner !== owner) await offlineDb.device.put({ key: 'owner', owner });
}

/** The saved album, if the account using the device now is the one that saved it. */
export async function savedAlbumForDeviceUser(
  find: (albums: typeof offlineDb.albums) => Promise<SavedAlbum | undefined>,
): Promise<SavedAlbum | undefined> {
  return offlineDb.transaction('r', [offlineDb.albums, offlineDb.device], async () => {
    const [album, user] = await Promise.all([find(offlineDb.albums), offlineDb.device.get('owner')]);
    return album && user?.owner && album.owner === user.owner ? album : undefined;
  });
}
