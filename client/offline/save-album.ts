import { Dexie } from 'dexie';
import type { LibraryAlbumDetail } from '../../shared/answers/library';
import { type SavedAlbum, type SavedTrack, offlineDb, removeSavedAlbum, trackChunks } from './offline-db';
import { rememberDeviceHoldsMusic } from './holds-music';
import { chunksComplete } from './ranged-blob';

// Saving albums for offline listening (issue 12). A save runs in one tab at a time (a Web Lock per
// album), writes each track's bytes as they arrive in pieces of about 1 MB, and keeps its progress
// in IndexedDB, so every tab shows it and any tab can pick up a save that stopped: after a dropped
// connection it asks for the rest with a Range request and nothing is downloaded twice. Tracks
// added while a save runs (another track, then the whole album) are downloaded by that save or,
// if it has just finished, by the next holder of the lock: no track is left waiting.

const PIECE_BYTES = 1024 * 1024;

const problems = {
  offline: 'Waiting for the connection to continue.',
  noAccess: 'This album is no longer in your music.',
  loggedOut: 'Log in again to continue saving.',
  failed: 'Saving stopped. Please try again.',
  storageFull: 'There is not enough storage on this device.',
};

class SaveStopped extends Error {}

class HttpRefusal extends Error {
  constructor(readonly status: number) {
    super(`answered ${status}`);
  }
}

/**
 * A full disk. Dexie turns IndexedDB's errors into its own (Dexie.QuotaExceededError, not a
 * DOMException), and a write that fails inside a transaction comes out as the transaction's
 * AbortError with the quota error as its `inner` cause.
 */
function isQuotaError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if ((cause as { name?: unknown }).name === Dexie.errnames.QuotaExceeded) return true;
    cause = (cause as { inner?: unknown; cause?: unknown }).inner ?? (cause as { cause?: unknown }).cause;
  }
  return false;
}

const PERSIST_ASKED_KEY = 'soundcause-offline-persist-asked';

/**
 * Asks the browser, at the first save on this device, to keep saved music when storage runs low.
 * Only once: Firefox asks the user, and a "no" is an answer, not something to nag about.
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
 */
export async function saveForOffline(album: LibraryAlbumDetail, owner: string, trackIds?: readonly number[]) {
  await askToPersist();
  const wanted = saveableTracks(album).filter((track) => !trackIds || trackIds.includes(track.id));
  await offlineDb.transaction('rw', [offlineDb.albums, offlineDb.tracks, offlineDb.chunks], async () => {
    const existing = await offlineDb.albums.get(album.projectId);
    await offlineDb.albums.put({
      projectId: album.projectId,
      projectSlug: album.projectSlug,
      owner,
      detail: album,
      state: 'saving',
      totalBytes: existing?.totalBytes ?? 0,
      receivedBytes: existing?.receivedBytes ?? 0,
      savedAt: Date.now(),
    });
    for (const track of wanted) {
      const saved = await offlineDb.tracks.get(track.id);
      if (saved?.src === track.src) continue;
      if (saved) await offlineDb.chunks.where('trackId').equals(track.id).delete();
      await offlineDb.tracks.put({
        trackId: track.id,
        projectId: album.projectId,
        src: track.src,
        size: 0,
        received: 0,
        contentType: 'audio/mpeg',
      });
    }
  });
  // The next page load keeps the store in step at once (client/app/layout.tsx).
  rememberDeviceHoldsMusic(true);
  await recount(album.projectId);
  void runSave(album.projectId);
}

/** Stops a save in this tab, if it runs here. */
const running = new Map<number, AbortController>();

/** Cancels a save (or removes a saved album): what was saved for it is deleted, in every tab. */
export async function removeFromDevice(projectId: number) {
  running.get(projectId)?.abort();
  await removeSavedAlbum(projectId);
}

/** Removes one saved track; the album goes too when it was the last. */
export async function removeTrackFromDevice(projectId: number, trackId: number) {
  const left = await offlineDb.transaction('rw', [offlineDb.tracks, offlineDb.chunks], async () => {
    await offlineDb.chunks.where('trackId').equals(trackId).delete();
    await offlineDb.tracks.delete(trackId);
    return offlineDb.tracks.where('projectId').equals(projectId).count();
  });
  if (left === 0) await removeFromDevice(projectId);
  else await recount(projectId);
}

/** Sums the album's known sizes and received bytes from its tracks. */
async function recount(projectId: number) {
  await offlineDb.transaction('rw', [offlineDb.albums, offlineDb.tracks], async () => {
    const tracks = await offlineDb.tracks.where('projectId').equals(projectId).toArray();
    const complete = tracks.every((track) => track.size > 0 && track.received >= track.size);
    await offlineDb.albums
      .where('projectId')
      .equals(projectId)
      .modify((album) => {
        album.totalBytes = tracks.reduce((sum, track) => sum + track.size, 0);
        album.receivedBytes = tracks.reduce((sum, track) => sum + track.received, 0);
        if (complete && album.state !== 'saved') {
          album.state = 'saved';
          delete album.problem;
        }
      });
  });
}

async function setState(projectId: number, state: SavedAlbum['state'], problem?: string) {
  await offlineDb.albums.update(projectId, { state, problem });
}

/**
 * Downloads what is missing of a saving album. One tab downloads an album at a time: the lock is
 * held for the whole save, and a request for it waits its turn rather than giving up, so a save
 * asked for while another runs (here or in another tab), or a tab that closes mid-save, is
 * carried on by the next holder.
 */
export async function runSave(projectId: number): Promise<void> {
  if (!('locks' in navigator)) {
    // Without Web Locks, at least this tab never runs two downloads of one album at once.
    if (!running.has(projectId)) await downloadAlbum(projectId);
    return;
  }
  await navigator.locks.request(`soundcause-offline-save-${projectId}`, () => downloadAlbum(projectId));
}

const isUnfinished = (track: SavedTrack) => track.size === 0 || track.received < track.size;

async function downloadAlbum(projectId: number) {
  const controller = new AbortController();
  running.set(projectId, controller);
  try {
    // Until nothing is left to download: tracks added meanwhile are read on the next pass.
    for (;;) {
      const album = await offlineDb.albums.get(projectId);
      // A save that failed while this one waited its turn (the sync's resume queues behind a
      // save in progress) stays failed: only the user's Try again starts it over.
      if (!album || album.state === 'failed') return;
      const tracks = (await offlineDb.tracks.where('projectId').equals(projectId).toArray()).filter(isUnfinished);
      if (tracks.length === 0) break;
      if (album.state !== 'saving') await setState(projectId, 'saving');
      await saveCover(album, controller.signal);
      // Sizes first (HEAD is cheap), so the album's progress is true from the start.
      for (const track of tracks) if (track.size === 0) await learnSize(track, controller.signal);
      await recount(projectId);
      const order = new Map(album.detail.tracks.map((track) => [track.id, track.index]));
      tracks.sort((a, b) => (order.get(a.trackId) ?? 0) - (order.get(b.trackId) ?? 0));
      for (const track of tracks) await downloadTrack(track.trackId, controller.signal);
    }
    await recount(projectId);
  } catch (error) {
    if (error instanceof SaveStopped || controller.signal.aborted) return;
    if (error instanceof HttpRefusal) {
      // A session that ended is not a lost album: the save waits for the next login.
      if (error.status === 401) await setState(projectId, 'paused', problems.loggedOut);
      else await setState(projectId, 'failed', [403, 404].includes(error.status) ? problems.noAccess : problems.failed);
    } else if (isQuotaError(error)) {
      await setState(projectId, 'failed', problems.storageFull);
    } else if (!navigator.onLine || error instanceof TypeError) {
      // A dropped connection: resumeSaves() continues when it comes back.
      await setState(projectId, 'paused', problems.offline);
    } else {
      await setState(projectId, 'failed', problems.failed);
    }
  } finally {
    running.delete(projectId);
  }
}

async function saveCover(album: SavedAlbum, signal: AbortSignal) {
  const url = album.detail.image;
  if (!url || (await offlineDb.responses.get(url))) return;
  const response = await fetch(url, { signal });
  if (!response.ok) return; // The music matters; a missing cover shows the placeholder.
  const blob = await response.blob();
  await offlineDb.responses.put({
    url,
    projectId: album.projectId,
    blob,
    contentType: response.headers.get('content-type') ?? blob.type,
  });
}

async function learnSize(track: SavedTrack, signal: AbortSignal) {
  const response = await fetch(track.src, { method: 'HEAD', signal, cache: 'no-store' });
  if (!response.ok) throw new HttpRefusal(response.status);
  const size = Number(response.headers.get('content-length') ?? 0);
  const contentType = response.headers.get('content-type') ?? track.contentType;
  await offlineDb.tracks.update(track.trackId, { size, contentType });
}

/** Whole size from `Content-Range: bytes a-b/size`. */
const sizeFromContentRange = (header: string | null) => Number(/\/(\d+)$/.exec(header ?? '')?.[1] ?? 0);

async function downloadTrack(trackId: number, signal: AbortSignal) {
  const track = await offlineDb.tracks.get(trackId);
  if (!track) throw new SaveStopped();
  if (track.size > 0 && track.received >= track.size) return;
  const response = await fetch(track.src, {
    signal,
    cache: 'no-store',
    headers: track.received > 0 ? { range: `bytes=${track.received}-` } : {},
  });
  let offset = track.received;
  if (response.status === 206) {
    const size = sizeFromContentRange(response.headers.get('content-range'));
    if (size !== track.size) await offlineDb.tracks.update(trackId, { size });
  } else if (response.status === 200) {
    // The whole file came back: start over rather than append it to what was saved.
    if (offset > 0) {
      await offlineDb.transaction('rw', [offlineDb.tracks, offlineDb.chunks], async () => {
        await offlineDb.chunks.where('trackId').equals(trackId).delete();
        await offlineDb.tracks.update(trackId, { received: 0 });
      });
      offset = 0;
    }
    // The size learnt first stands (the URL names one version of the file); a body that ends
    // short of it is a cut connection, not a smaller file.
    const size = Number(response.headers.get('content-length') ?? 0);
    if (size && !track.size) await offlineDb.tracks.update(trackId, { size });
  } else {
    await response.body?.cancel();
    throw new HttpRefusal(response.status);
  }

  const reader = response.body!.getReader();
  let pieces: Uint8Array[] = [];
  let buffered = 0;
  const flush = async () => {
    if (buffered === 0) return;
    const blob = new Blob(pieces as BlobPart[]);
    const start = offset;
    pieces = [];
    buffered = 0;
    offset += blob.size;
    await storePiece(track.projectId, trackId, start, blob);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
      buffered += value.byteLength;
      if (buffered >= PIECE_BYTES) await flush();
    }
  } catch (error) {
    // Keep what arrived before a drop or a cancel: a resume asks only for the rest.
    await flush().catch(() => undefined);
    throw error;
  }
  // The last piece's write may fail in its own right (a full disk): that is the save's failure.
  await flush();
  const saved = await offlineDb.tracks.get(trackId);
  if (saved && !chunksComplete(await trackChunks(trackId), saved.size)) throw new TypeError('incomplete');
}

/** One piece and the progress it makes, together; a removed album stops the save. */
async function storePiece(projectId: number, trackId: number, start: number, blob: Blob) {
  await offlineDb.transaction('rw', [offlineDb.albums, offlineDb.tracks, offlineDb.chunks], async () => {
    const [album, track] = await Promise.all([offlineDb.albums.get(projectId), offlineDb.tracks.get(trackId)]);
    if (!album || !track) throw new SaveStopped();
    await offlineDb.chunks.put({ trackId, start, blob });
    await offlineDb.tracks.update(trackId, { received: start + blob.size });
    await offlineDb.albums.update(projectId, {
      receivedBytes: album.receivedBytes + (start + blob.size - track.received),
    });
  });
}

/** Continues `owner`'s saves that stopped (a closed tab, a dropped connection): on start and when back online. */
export async function resumeSaves(owner: string) {
  if (!navigator.onLine) return;
  const unfinished = await offlineDb.albums
    .where('owner')
    .equals(owner)
    .filter((album) => album.state === 'saving' || album.state === 'paused')
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
      await saveForOffline(
        detail,
        owner,
        kept.map((track) => track.trackId),
      );
    } else {
      await offlineDb.albums.update(album.projectId, { detail, projectSlug: detail.projectSlug });
    }
  }
}
