import type { LibraryAlbumDetail } from '../../shared/answers/library';
import { offlineDb, removeSavedAlbum } from './offline-db';
import { recount, runSave, setState, setSwitchState, stopDownload } from './download-album';
import { rememberDeviceHoldsMusic } from './holds-music';
import { type OfflineQuality, qualityContentType } from './offline-quality';

// Saving albums for offline listening (issue 12), in one of two qualities (issue 27): what the
// pages ask for. The downloading itself, in one tab at a time and resumable, is download-album.ts.

export { runSave } from './download-album';

const PERSIST_ASKED_KEY = 'soundcause-offline-persist-asked';

/**
 * Asks the browser, at the first save on this device, to keep saved music when storage runs low.
 * Only once: Firefox asks the user, and a "no" is an answer, not something to nag about. Whether
 * it was granted, the storage meter says (storage-meter.tsx).
 */
async function askToPersist() {
  if (!navigator.storage?.persist) return;
  try {
    if (localStorage.getItem(PERSIST_ASKED_KEY)) return;
    localStorage.setItem(PERSIST_ASKED_KEY, String(Date.now()));
  } catch {
    // No storage to remember it in: asking again is the lesser harm.
  }
  if (await navigator.storage.persisted?.()) return;
  await navigator.storage.persist().catch(() => false);
}

const saveableTracks = (album: LibraryAlbumDetail) =>
  album.tracks.filter((track): track is typeof track & { src: string } => Boolean(track.src));

/**
 * Saves `album` (or only `trackIds` of it) on this device for `owner`, adding to what is
 * already saved, and starts downloading. Tracks whose stream changed since are saved again.
 * `quality` is for an album not saved yet: one already saved keeps its own, tracks added included.
 */
export async function saveForOffline(
  album: LibraryAlbumDetail,
  owner: string,
  { trackIds, quality: chosen = 'standard' }: { trackIds?: readonly number[]; quality?: OfflineQuality } = {},
) {
  await askToPersist();
  const wanted = saveableTracks(album).filter((track) => !trackIds || trackIds.includes(track.id));
  await offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks],
    async () => {
      const existing = await offlineDb.albums.get(album.projectId);
      const quality = existing?.quality ?? chosen;
      await offlineDb.albums.put({
        projectId: album.projectId,
        projectSlug: album.projectSlug,
        owner,
        detail: album,
        state: 'saving',
        quality,
        ...(existing?.switching && { switching: existing.switching }),
        totalBytes: existing?.totalBytes ?? 0,
        receivedBytes: existing?.receivedBytes ?? 0,
        savedAt: Date.now(),
      });
      for (const track of wanted) {
        const saved = await offlineDb.tracks.get(track.id);
        if (saved?.src === track.src && saved.quality === quality) continue;
        if (saved) {
          await offlineDb.chunks.where('trackId').equals(track.id).delete();
          await offlineDb.nextChunks.where('trackId').equals(track.id).delete();
        }
        await offlineDb.tracks.put({
          trackId: track.id,
          projectId: album.projectId,
          src: track.src,
          quality,
          size: 0,
          received: 0,
          contentType: qualityContentType[quality],
        });
      }
    },
  );
  // The next page load keeps the store in step at once (client/app/layout.tsx).
  rememberDeviceHoldsMusic(true);
  await recount(album.projectId);
  void runSave(album.projectId);
}

/** Cancels a save (or removes a saved album): what was saved for it is deleted, in every tab. */
export async function removeFromDevice(projectId: number) {
  stopDownload(projectId);
  await removeSavedAlbum(projectId);
}

/** Removes one saved track; the album goes too when it was the last. */
export async function removeTrackFromDevice(projectId: number, trackId: number) {
  const left = await offlineDb.transaction(
    'rw',
    [offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks],
    async () => {
      await offlineDb.chunks.where('trackId').equals(trackId).delete();
      await offlineDb.nextChunks.where('trackId').equals(trackId).delete();
      await offlineDb.tracks.delete(trackId);
      return offlineDb.tracks.where('projectId').equals(projectId).count();
    },
  );
  if (left === 0) await removeFromDevice(projectId);
  else await recount(projectId);
}

/**
 * Saves a saved album again in the other quality (issue 27). The copy it has stays, and plays,
 * until every track of the new one is whole (download-album.ts); choosing the quality it has
 * stops a change under way.
 */
export async function switchAlbumQuality(projectId: number, to: OfflineQuality) {
  const album = await offlineDb.albums.get(projectId);
  if (!album) return;
  if (album.quality === to) {
    await stopSwitching(projectId);
    return;
  }
  if (album.switching?.to === to) await setSwitchState(projectId, 'saving');
  else
    await offlineDb.albums.update(projectId, { switching: { to, state: 'saving', totalBytes: 0, receivedBytes: 0 } });
  await runSave(projectId);
}

/**
 * Stops a change of quality: the new copies made so far go, the album stays as it was. A piece
 * on its way in this tab or another is refused when it arrives (download-album.ts, storePiece).
 */
export async function stopSwitching(projectId: number) {
  await offlineDb.transaction('rw', [offlineDb.albums, offlineDb.tracks, offlineDb.nextChunks], async () => {
    const trackIds = (await offlineDb.tracks.where('projectId').equals(projectId).primaryKeys()) as number[];
    await offlineDb.nextChunks.where('trackId').anyOf(trackIds).delete();
    await offlineDb.tracks
      .where('projectId')
      .equals(projectId)
      .modify((track) => {
        delete track.next;
      });
    await offlineDb.albums.update(projectId, { switching: undefined });
  });
  await recount(projectId);
}

/** Continues `owner`'s saves that stopped (a closed tab, a dropped connection): on start and when back online. */
export async function resumeSaves(owner: string) {
  if (!navigator.onLine) return;
  const unfinished = await offlineDb.albums
    .where('owner')
    .equals(owner)
    .filter((album) => [album.state, album.switching?.state].some((state) => state === 'saving' || state === 'paused'))
    .primaryKeys();
  await Promise.all(unfinished.map((projectId) => runSave(projectId)));
}

/** Tries a failed save again. */
export async function retrySave(projectId: number) {
  await setState(projectId, 'saving');
  await runSave(projectId);
}

/**
 * Access ends when it should (issue 12): each saved album of `owner` is asked for again; one that
 * is no longer theirs (refunded, deleted: the library answers 404) is removed, one whose tracks
 * changed is saved again. Call it only once the server has confirmed `owner`'s session
 * (offline-sync.tsx); a 401 stops it and keeps everything.
 */
export async function syncSavedAlbums(owner: string) {
  if (!navigator.onLine) return;
  const albums = await offlineDb.albums.where('owner').equals(owner).toArray();
  for (const album of albums) {
    const response = await fetch(`/api/music-library/album/${album.projectId}`, { cache: 'no-store' }).catch(
      () => null,
    );
    // Offline after all (no answer, or the service worker's saved copy): try again next time.
    if (!response || response.headers.get('x-offline')) return;
    // The session ended (a password changed elsewhere): that says nothing about the albums.
    if (response.status === 401) return;
    // The library's answer for an album that is not the caller's (refunded, deleted): only then
    // does the music leave the device.
    if (response.status === 404) {
      await removeFromDevice(album.projectId);
      continue;
    }
    if (!response.ok) continue;
    const detail = (await response.json()) as LibraryAlbumDetail;
    const savedTracks = await offlineDb.tracks.where('projectId').equals(album.projectId).toArray();
    const current = new Map(detail.tracks.map((track) => [track.id, track.src]));
    const kept = savedTracks.filter((saved) => current.has(saved.trackId));
    for (const gone of savedTracks.filter((saved) => !current.has(saved.trackId))) {
      await removeTrackFromDevice(album.projectId, gone.trackId);
    }
    if (kept.length === 0) continue;
    const changed = kept.some((saved) => current.get(saved.trackId) !== saved.src);
    if (changed) {
      await saveForOffline(detail, owner, { trackIds: kept.map((track) => track.trackId) });
    } else {
      await offlineDb.albums.update(album.projectId, { detail, projectSlug: detail.projectSlug });
    }
  }
}
