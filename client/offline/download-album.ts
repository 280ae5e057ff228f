import { Dexie } from 'dexie';
import { type SavedAlbum, type SavedTrack, type TrackCopy, offlineDb, trackChunks } from './offline-db';
import { type OfflineQuality, qualityContentType } from './offline-quality';
import { chunksComplete } from './ranged-blob';
import { downloadTrack, HttpRefusal, isUnfinished, learnSize, SaveStopped } from './download-track';

// Downloading saved albums (issue 12). A download runs in one tab at a time (a Web Lock per
// album) and keeps its progress in IndexedDB, so every tab shows it and any tab can pick up a
// download that stopped, where it stopped (download-track.ts). Tracks added while a download runs
// (another track, then the whole album) are downloaded by it or, if it has just finished, by the
// next holder of the lock: no track is left waiting.
//
// A change of quality (issue 27) is the same download into each track's next copy, once the album
// is whole; when every next copy is whole they replace the old ones in one transaction.

const problems = {
  offline: 'Waiting for the connection to continue.',
  noAccess: 'This album is no longer in your music.',
  loggedOut: 'Log in again to continue saving.',
  failed: 'Saving stopped. Please try again.',
  notReady: 'The server is still preparing these files. Please try again in a few minutes.',
  storageFull: 'There is not enough storage on this device.',
};

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

/** What a stopped download leaves the album (or its change of quality) as, and why in words. */
function failure(error: unknown): { state: 'paused' | 'failed'; problem: string } {
  if (error instanceof HttpRefusal) {
    // A session that ended is not a lost album: the download waits for the next login.
    if (error.status === 401) return { state: 'paused', problem: problems.loggedOut };
    if (error.status === 503) return { state: 'failed', problem: problems.notReady };
    return { state: 'failed', problem: [403, 404].includes(error.status) ? problems.noAccess : problems.failed };
  }
  if (isQuotaError(error)) return { state: 'failed', problem: problems.storageFull };
  // A dropped connection: resumeSaves() continues when it comes back.
  if (!navigator.onLine || error instanceof TypeError) return { state: 'paused', problem: problems.offline };
  return { state: 'failed', problem: problems.failed };
}

const sum = (copies: readonly TrackCopy[], field: 'size' | 'received') =>
  copies.reduce((total, copy) => total + copy[field], 0);

/** Sums the album's known sizes and received bytes (and its next copies') from its tracks. */
export async function recount(projectId: number) {
  await offlineDb.transaction('rw', [offlineDb.albums, offlineDb.tracks], async () => {
    const tracks = await offlineDb.tracks.where('projectId').equals(projectId).toArray();
    const complete = !tracks.some(isUnfinished);
    const next = tracks.flatMap((track) => (track.next ? [track.next] : []));
    await offlineDb.albums
      .where('projectId')
      .equals(projectId)
      .modify((album) => {
        album.totalBytes = sum(tracks, 'size');
        album.receivedBytes = sum(tracks, 'received');
        if (complete && album.state !== 'saved') {
          album.state = 'saved';
          delete album.problem;
        }
        if (album.switching) {
          album.switching.totalBytes = sum(next, 'size');
          album.switching.receivedBytes = sum(next, 'received');
        }
      });
  });
}

export async function setState(projectId: number, state: SavedAlbum['state'], problem?: string) {
  await offlineDb.albums.update(projectId, { state, problem });
}

export async function setSwitchState(projectId: number, state: 'saving' | 'paused' | 'failed', problem?: string) {
  await offlineDb.albums
    .where('projectId')
    .equals(projectId)
    .modify((album) => {
      if (!album.switching) return;
      album.switching.state = state;
      if (problem) album.switching.problem = problem;
      else delete album.switching.problem;
    });
}

/** Stops a download in this tab, if it runs here. */
const running = new Map<number, AbortController>();

export const stopDownload = (projectId: number) => running.get(projectId)?.abort();

/**
 * Downloads what is missing of an album, then what its change of quality needs. One tab downloads
 * an album at a time: the lock is held for the whole download, and a request for it waits its turn
 * rather than giving up, so one asked for while another runs (here or in another tab), or a tab
 * that closes mid-download, is carried on by the next holder.
 */
export async function runSave(projectId: number): Promise<void> {
  if (!('locks' in navigator)) {
    // Without Web Locks, at least this tab never runs two downloads of one album at once.
    if (!running.has(projectId)) await downloadAlbum(projectId);
    return;
  }
  await navigator.locks.request(`soundcause-offline-save-${projectId}`, () => downloadAlbum(projectId));
}

async function downloadAlbum(projectId: number) {
  const controller = new AbortController();
  running.set(projectId, controller);
  // Whose failure it is: the album's, or (once the album is whole) its change of quality's.
  let stage: 'save' | 'switch' = 'save';
  try {
    if (!(await saveMissing(projectId, controller.signal))) return;
    stage = 'switch';
    await switchQuality(projectId, controller.signal);
  } catch (error) {
    if (error instanceof SaveStopped || controller.signal.aborted) return;
    const { state, problem } = failure(error);
    if (stage === 'save') await setState(projectId, state, problem);
    else await setSwitchState(projectId, state, problem);
  } finally {
    running.delete(projectId);
  }
}

const inAlbumOrder = (album: SavedAlbum, tracks: SavedTrack[]) => {
  const order = new Map(album.detail.tracks.map((track) => [track.id, track.index]));
  return tracks.sort((a, b) => (order.get(a.trackId) ?? 0) - (order.get(b.trackId) ?? 0));
};

/** Downloads the tracks not yet whole; false when the album is gone or its save failed. */
async function saveMissing(projectId: number, signal: AbortSignal): Promise<boolean> {
  // Until nothing is left to download: tracks added meanwhile are read on the next pass.
  for (;;) {
    const album = await offlineDb.albums.get(projectId);
    // A save that failed while this one waited its turn (the sync's resume queues behind a
    // save in progress) stays failed: only the user's Try again starts it over.
    if (!album || album.state === 'failed') return false;
    const tracks = (await offlineDb.tracks.where('projectId').equals(projectId).toArray()).filter(isUnfinished);
    if (tracks.length === 0) break;
    if (album.state !== 'saving') await setState(projectId, 'saving');
    await saveCover(album, signal);
    // Sizes first (HEAD is cheap), so the album's progress is true from the start.
    for (const track of tracks) if (track.size === 0) await learnSize(track.trackId, 'current', signal);
    await recount(projectId);
    for (const track of inAlbumOrder(album, tracks)) await downloadTrack(track.trackId, 'current', signal);
  }
  await recount(projectId);
  return true;
}

/** Downloads each track's copy in the album's new quality, then puts them in place of the old. */
async function switchQuality(projectId: number, signal: AbortSignal) {
  for (;;) {
    const album = await offlineDb.albums.get(projectId);
    const switching = album?.switching;
    if (!album || !switching || switching.state === 'failed') return;
    const { to } = switching;
    // Tracks saved while it switches are saved in the album's quality too, and switch with it.
    const pending = (await offlineDb.tracks.where('projectId').equals(projectId).toArray()).filter(
      (track) => track.quality !== to && (track.next?.quality !== to || isUnfinished(track.next)),
    );
    if (pending.length === 0) {
      if (await replaceCopies(projectId, to)) return;
      continue;
    }
    if (switching.state !== 'saving') await setSwitchState(projectId, 'saving');
    for (const track of pending) {
      const fresh = track.next?.quality !== to;
      if (fresh) await startNextCopy(track.trackId, to);
      if (fresh || track.next?.size === 0) await learnSize(track.trackId, 'next', signal);
    }
    await recount(projectId);
    for (const track of inAlbumOrder(album, pending)) await downloadTrack(track.trackId, 'next', signal);
  }
}

async function startNextCopy(trackId: number, quality: OfflineQuality) {
  await offlineDb.transaction('rw', [offlineDb.tracks, offlineDb.nextChunks], async () => {
    await offlineDb.nextChunks.where('trackId').equals(trackId).delete();
    await offlineDb.tracks.update(trackId, {
      next: { quality, size: 0, received: 0, contentType: qualityContentType[quality] },
    });
  });
}

/**
 * Every track's copy in the new quality is whole: they take the old ones' place in one
 * transaction, so the service worker answers from the old album or the new one, never from a
 * mix. IndexedDB copies the Blobs from one store to the other; the old bytes go only now. A copy
 * found with a gap is started over (false: another pass downloads it).
 */
async function replaceCopies(projectId: number, to: OfflineQuality): Promise<boolean> {
  return offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks],
    async () => {
      const album = await offlineDb.albums.get(projectId);
      if (album?.switching?.to !== to) return true;
      const tracks = await offlineDb.tracks.where('projectId').equals(projectId).toArray();
      const replacing = tracks.filter((track) => track.quality !== to);
      const copies = await Promise.all(replacing.map((track) => trackChunks(track.trackId, offlineDb.nextChunks)));
      let whole = true;
      for (const [index, track] of replacing.entries()) {
        if (track.next?.quality === to && chunksComplete(copies[index]!, track.next.size)) continue;
        whole = false;
        await offlineDb.nextChunks.where('trackId').equals(track.trackId).delete();
        await offlineDb.tracks.update(track.trackId, { next: undefined });
      }
      if (!whole) return false;
      for (const [index, track] of replacing.entries()) {
        const next = track.next!;
        await offlineDb.chunks.where('trackId').equals(track.trackId).delete();
        await offlineDb.chunks.bulkPut(copies[index]!);
        await offlineDb.nextChunks.where('trackId').equals(track.trackId).delete();
        await offlineDb.tracks.put({
          trackId: track.trackId,
          projectId: track.projectId,
          src: track.src,
          quality: next.quality,
          size: next.size,
          received: next.received,
          contentType: next.contentType,
        });
      }
      const now = await offlineDb.tracks.where('projectId').equals(projectId).toArray();
      await offlineDb.albums.update(projectId, {
        quality: to,
        switching: undefined,
        totalBytes: sum(now, 'size'),
        receivedBytes: sum(now, 'received'),
      });
      return true;
    },
  );
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
