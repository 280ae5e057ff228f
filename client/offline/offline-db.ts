import { Dexie, type EntityTable } from 'dexie';
import type { LibraryAlbumDetail } from '../../shared/answers/library';
import type { OfflineQuality } from './offline-quality';

// Music saved on this device (issue 12; DESIGN.md "offline"): one IndexedDB database that the
// pages write and the service worker reads, so /api/tracks/{id}/stream answers from the device.

/** 'saving' while a tab downloads it (or will resume it), 'saved' when every track is whole. */
export type SaveState = 'saving' | 'paused' | 'saved' | 'failed';

/**
 * A change of quality under way (issue 27): each track's copy in the new quality is downloaded
 * beside the one that plays (SavedTrack.next, nextChunks), and replaces it only once every track
 * has its whole copy, so the album plays offline throughout and is never half one, half the other.
 */
export type QualitySwitch = {
  to: OfflineQuality;
  state: 'saving' | 'paused' | 'failed';
  problem?: string;
  totalBytes: number;
  receivedBytes: number;
};

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
  /** What its tracks are saved in; tracks added later take it too. */
  quality: OfflineQuality;
  switching?: QualitySwitch;
  totalBytes: number;
  receivedBytes: number;
  savedAt: number;
};

/** One quality's copy of a track: the bytes it should have and those it has. */
export type TrackCopy = {
  quality: OfflineQuality;
  /** 0 until the first answer gives the length. */
  size: number;
  received: number;
  contentType: string;
};

/** A saved track: its copy that plays (its bytes in `chunks`) and, while switching, the next one. */
export type SavedTrack = TrackCopy & {
  trackId: number;
  projectId: number;
  /**
   * The versioned stream URL: the same URL the player asks for, and the service worker's key
   * whatever the quality (the bytes are downloaded from offline-quality.ts's qualityUrl).
   */
  src: string;
  /** The copy in the album's new quality, its bytes in `nextChunks`. */
  next?: TrackCopy;
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
  nextChunks: EntityTable<TrackChunk, 'trackId'>;
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
// Issue 27: music saved before there was a choice is the streaming rendition, Standard.
offlineDb
  .version(3)
  .stores({ nextChunks: '[trackId+start], trackId' })
  .upgrade(async (tx) => {
    const standard = (row: { quality?: OfflineQuality }) => {
      row.quality ??= 'standard';
    };
    await tx.table<SavedAlbum, number>('albums').toCollection().modify(standard);
    await tx.table<SavedTrack, number>('tracks').toCollection().modify(standard);
  });

/**
 * A track's chunks in order (their Blobs are handles: reading the rows does not read the bytes),
 * from `chunks` (the copy that plays) or `nextChunks` (the one replacing it).
 */
export function trackChunks(trackId: number, table = offlineDb.chunks): Promise<TrackChunk[]> {
  return table.where('[trackId+start]').between([trackId, Dexie.minKey], [trackId, Dexie.maxKey]).toArray();
}

/** Removes an album and everything saved for it. */
export async function removeSavedAlbum(projectId: number): Promise<void> {
  await offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks, offlineDb.responses],
    async () => {
      const trackIds = (await offlineDb.tracks.where('projectId').equals(projectId).primaryKeys()) as number[];
      await offlineDb.chunks.where('trackId').anyOf(trackIds).delete();
      await offlineDb.nextChunks.where('trackId').anyOf(trackIds).delete();
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
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks, offlineDb.responses],
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
