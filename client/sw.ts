/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { offlineDb, savedAlbumForDeviceUser, trackChunks } from './offline/offline-db';
import { chunksComplete, rangedResponse } from './offline/ranged-blob';

// The service worker (issue 12): the app shell from the precache, so the site opens with no
// network, and the music saved on this device answered at the same URLs the player uses, so
// playback, Howler and the Media Session need no special case offline. Saved music is answered
// only to the account that saved it (offline-db.ts, DeviceUser): on a shared device another
// account, or a guest after "Keep and log out", gets the network's answer, as if nothing were saved.

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first visit is controlled at once, so it already works offline after one load. A new
// version waits until the page's update prompt says so (client/app/update-prompt.tsx).
clientsClaim();
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/media\//, /^\/embed\//] }),
);

/**
 * A saved track's stream, from the device when every byte of that version is there. The player's
 * URL is the key whatever quality was saved (issue 27): a Data saver copy answers for it, with its
 * own content type. The track and its chunks are read in one transaction, so a change of quality
 * completing meanwhile (client/offline/download-album.ts) gives the old copy or the new, never a mix.
 */
async function savedStream(request: Request, url: URL): Promise<Response> {
  const trackId = Number(/^\/api\/tracks\/(\d+)\/stream$/.exec(url.pathname)?.[1]);
  const saved = await offlineDb
    .transaction('r', [offlineDb.tracks, offlineDb.chunks], async () => {
      const track = await offlineDb.tracks.get(trackId);
      const whole = track && track.size > 0 && track.received >= track.size && track.src === url.pathname + url.search;
      return whole ? { track, chunks: await trackChunks(trackId) } : undefined;
    })
    .catch(() => undefined);
  if (saved && chunksComplete(saved.chunks, saved.track.size)) {
    const album = await savedAlbumForDeviceUser((albums) => albums.get(saved.track.projectId)).catch(() => undefined);
    if (album) return rangedResponse(request, saved.chunks, saved.track.size, saved.track.contentType);
  }
  return fetch(request);
}

for (const method of ['GET', 'HEAD'] as const) {
  registerRoute(
    ({ url }) => url.origin === self.location.origin && /^\/api\/tracks\/\d+\/stream$/.test(url.pathname),
    ({ request, url }) => savedStream(request, url),
    method,
  );
}

/**
 * How long a saved album's page waits for the network before it opens from the device: a
 * connection that carries nothing ('lie-fi') must not keep it spinning.
 */
const SAVED_ALBUM_NETWORK_WAIT_MS = 3000;

/** The saved album a library URL names (by id or by slug), if this account saved it. */
function savedAlbumAt(url: URL) {
  const [, id, slug] = /^\/api\/music-library\/album\/(?:(\d+)|slug\/(.+))$/.exec(url.pathname) ?? [];
  if (!id && !slug) return Promise.resolve(undefined);
  return savedAlbumForDeviceUser((albums) =>
    id ? albums.get(Number(id)) : albums.where('projectSlug').equals(decodeURIComponent(slug!)).first(),
  ).catch(() => undefined);
}

/**
 * The network's answer, fresh (new tracks, a refund), when it comes soon; the saved album's when
 * there is no network or it does not answer in time. DESIGN.md: the album page opens offline
 * without calling the network.
 */
async function albumFromNetworkOrDevice(request: Request, url: URL): Promise<Response> {
  const saved = await savedAlbumAt(url);
  if (!saved) return fetch(request);
  const fromDevice = () =>
    Response.json(saved.detail, { headers: { 'cache-control': 'private, no-store', 'x-offline': 'saved' } });
  if (!self.navigator.onLine) return fromDevice();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SAVED_ALBUM_NETWORK_WAIT_MS);
  });
  try {
    return (await Promise.race([fetch(request), late])) ?? fromDevice();
  } catch {
    return fromDevice();
  } finally {
    clearTimeout(timer);
  }
}

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/api/music-library/album/'),
  ({ request, url }) => albumFromNetworkOrDevice(request, url),
);

/** A saved album's cover: from the device first (it never changes at that URL). */
async function savedImage(request: Request, url: URL): Promise<Response> {
  const saved = await offlineDb.responses.get(url.pathname).catch(() => undefined);
  if (saved) return new Response(saved.blob, { headers: { 'content-type': saved.contentType } });
  return fetch(request);
}

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/media/images/'),
  ({ request, url }) => savedImage(request, url),
);
