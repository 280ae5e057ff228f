import { OFFLINE_SAVE_QUERY } from '../../shared/constants';
import { type SavedTrack, type TrackCopy, offlineDb, trackChunks } from './offline-db';
import { qualityUrl } from './offline-quality';
import { chunksComplete } from './ranged-blob';

// Downloading one copy of a saved track (issue 12): in pieces of about 1 MB, each written with the
// progress it makes, so a download cut off resumes with a Range request for the rest. The copy is
// the one that plays or, while the album changes quality (issue 27), the one to replace it.

const PIECE_BYTES = 1024 * 1024;

/** The album, its change of quality or the track went while downloading: nothing to report. */
export class SaveStopped extends Error {}

export class HttpRefusal extends Error {
  constructor(readonly status: number) {
    super(`answered ${status}`);
  }
}

/** Which of a track's copies a download fills: the one that plays, or the one to replace it. */
export type Slot = 'current' | 'next';

const copyOf = (track: SavedTrack, slot: Slot): TrackCopy | undefined => (slot === 'current' ? track : track.next);
const chunkTable = (slot: Slot) => (slot === 'current' ? offlineDb.chunks : offlineDb.nextChunks);
export const isUnfinished = (copy: TrackCopy) => copy.size === 0 || copy.received < copy.size;

async function updateCopy(trackId: number, slot: Slot, changes: Partial<TrackCopy>) {
  await offlineDb.tracks
    .where('trackId')
    .equals(trackId)
    .modify((track) => {
      const copy = copyOf(track, slot);
      if (copy) Object.assign(copy, changes);
    });
}

/** How many times, and how long at most each time, a download waits for a file being made. */
const READY_TRIES = 10;
const READY_WAIT_MS = { unsaid: 5_000, longest: 30_000 };

/** Retry-After in milliseconds, as seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  const ms = header && Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header ?? '') - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, READY_WAIT_MS.longest) : READY_WAIT_MS.unsaid;
}

function wait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new SaveStopped());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * A track's bytes in a quality. The server makes a Data saver file at its first request, which may
 * take a while, and answers 503 with Retry-After when it takes over a minute: the download waits
 * as it says and asks again, a few times, before giving up.
 */
async function fetchReady(url: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  for (let tries = 1; ; tries++) {
    const response = await fetch(url, init);
    if (response.status !== 503 || tries >= READY_TRIES) return response;
    await response.body?.cancel();
    await wait(retryAfterMs(response.headers.get('retry-after')), init.signal);
  }
}

export async function learnSize(trackId: number, slot: Slot, signal: AbortSignal) {
  const track = await offlineDb.tracks.get(trackId);
  const copy = track && copyOf(track, slot);
  if (!track || !copy) throw new SaveStopped();
  const response = await fetchReady(qualityUrl(track.src, copy.quality), {
    method: 'HEAD',
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw new HttpRefusal(response.status);
  await updateCopy(trackId, slot, {
    size: Number(response.headers.get('content-length') ?? 0),
    contentType: response.headers.get('content-type') ?? copy.contentType,
  });
}

/** A copy being kept, not a play: the fundraiser's insight counts plays (issue 29). */
function savingUrl(url: string): string {
  const saving = new URL(url, location.href);
  saving.searchParams.set(OFFLINE_SAVE_QUERY.name, OFFLINE_SAVE_QUERY.value);
  return `${saving.pathname}${saving.search}`;
}

/** Whole size from `Content-Range: bytes a-b/size`. */
const sizeFromContentRange = (header: string | null) => Number(/\/(\d+)$/.exec(header ?? '')?.[1] ?? 0);

export async function downloadTrack(trackId: number, slot: Slot, signal: AbortSignal) {
  const track = await offlineDb.tracks.get(trackId);
  const copy = track && copyOf(track, slot);
  if (!track || !copy) throw new SaveStopped();
  if (!isUnfinished(copy)) return;
  const chunks = chunkTable(slot);
  const response = await fetchReady(savingUrl(qualityUrl(track.src, copy.quality)), {
    signal,
    cache: 'no-store',
    headers: copy.received > 0 ? { range: `bytes=${copy.received}-` } : {},
  });
  let offset = copy.received;
  if (response.status === 206) {
    const size = sizeFromContentRange(response.headers.get('content-range'));
    if (size !== copy.size) await updateCopy(trackId, slot, { size });
  } else if (response.status === 200) {
    // The whole file came back: start over rather than append it to what was saved.
    if (offset > 0) {
      await offlineDb.transaction('rw', [offlineDb.tracks, chunks], async () => {
        await chunks.where('trackId').equals(trackId).delete();
        await updateCopy(trackId, slot, { received: 0 });
      });
      offset = 0;
    }
    // The size learnt first stands (the URL names one version of the file); a body that ends
    // short of it is a cut connection, not a smaller file.
    const size = Number(response.headers.get('content-length') ?? 0);
    if (size && !copy.size) await updateCopy(trackId, slot, { size });
  } else {
    await response.body?.cancel();
    throw new HttpRefusal(response.status);
  }
  // What the bytes are (audio/mp4 for Data saver), as the answer says: the service worker gives it on.
  const contentType = response.headers.get('content-type');
  if (contentType && contentType !== copy.contentType) await updateCopy(trackId, slot, { contentType });

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
    await storePiece(track.projectId, trackId, slot, start, blob);
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
  // The last piece's write may fail in its own right (a full disk): that is the download's failure.
  await flush();
  const saved = await offlineDb.tracks.get(trackId);
  const savedCopy = saved && copyOf(saved, slot);
  if (savedCopy && !chunksComplete(await trackChunks(trackId, chunks), savedCopy.size)) {
    throw new TypeError('incomplete');
  }
}

/**
 * One piece and the progress it makes, together. A removed album stops the download, and so does
 * a change of quality stopped (or started again) while the piece was on its way.
 */
async function storePiece(projectId: number, trackId: number, slot: Slot, start: number, blob: Blob) {
  await offlineDb.transaction(
    'rw',
    [offlineDb.albums, offlineDb.tracks, offlineDb.chunks, offlineDb.nextChunks],
    async () => {
      const [album, track] = await Promise.all([offlineDb.albums.get(projectId), offlineDb.tracks.get(trackId)]);
      const copy = track && copyOf(track, slot);
      if (!album || !track || !copy) throw new SaveStopped();
      const progress = slot === 'current' ? album : album.switching;
      if (!progress || (slot === 'next' && album.switching?.to !== copy.quality)) throw new SaveStopped();
      await chunkTable(slot).put({ trackId, start, blob });
      progress.receivedBytes += start + blob.size - copy.received;
      copy.received = start + blob.size;
      await offlineDb.tracks.put(track);
      await offlineDb.albums.put(album);
    },
  );
}
