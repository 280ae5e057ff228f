import { queryOptions } from '@tanstack/react-query';
import type { DownloadFormatId } from '../../shared/download-formats';
import { apiRequest, retryUnlessRefused } from '../api/http';

// The download formats' calls (issue 27; DESIGN.md, contract details for wave 3, formats): what an
// album is offered in, and preparing it (or one of its tracks) in one of them. The same preparation
// is asked for at a different address by each kind of holder — an account, the receipt's link, the
// success page's grant — so each thing to download carries its own addresses (DownloadTarget).

/** While a preparation runs, its page asks how far it has come this often. */
export const PREPARATION_POLL_MS = 1500;

/** Something to download in a format: an album, or one of its tracks, as its holder reaches it. */
export type DownloadTarget = {
  kind: 'album' | 'track';
  /** The album's or the track's name, for the words ("Preparing “Name” as FLAC"). */
  name: string;
  /** The album's fundraiser: its formats and their sizes (GET /api/fundraisers/{id}/formats). */
  fundraiserId: number;
  /** Where a preparation in `format` is started (POST) and read (GET). */
  preparationPath: (format: DownloadFormatId) => string;
  /** What this device remembers the last chosen format under (download-preparation.ts). */
  memoryKey: string;
};

/** How the album's holder reaches it: signed in, the receipt's link, or the success page's grant. */
export type AlbumAccess = { via: 'library' } | { via: 'receipt'; token: string } | { via: 'grant'; grant: string };

const formatPath = (format: DownloadFormatId) => `formats/${encodeURIComponent(format)}`;

export function albumTarget(album: { id: number; name: string }, access: AlbumAccess): DownloadTarget {
  const id = album.id;
  const preparationPath = (format: DownloadFormatId) => {
    switch (access.via) {
      case 'library':
        return `/api/music-library/album/${id}/${formatPath(format)}`;
      case 'receipt':
        return `/api/purchases/${encodeURIComponent(access.token)}/${formatPath(format)}`;
      case 'grant':
        return `/api/fundraisers/${id}/${formatPath(format)}?grant=${encodeURIComponent(access.grant)}`;
    }
  };
  return { kind: 'album', name: album.name, fundraiserId: id, preparationPath, memoryKey: `album:${id}` };
}

/** One track, with the session, or with the guest's own grant for it (the one in its stream URL). */
export function trackTarget(
  track: { id: number; name: string },
  fundraiserId: number,
  grant: string | null = null,
): DownloadTarget {
  const query = grant ? `?grant=${encodeURIComponent(grant)}` : '';
  return {
    kind: 'track',
    name: track.name,
    fundraiserId,
    preparationPath: (format) => `/api/tracks/${track.id}/${formatPath(format)}${query}`,
    memoryKey: `track:${track.id}`,
  };
}

/** The `grant` a granted URL carries (a guest's stream or album download), if any. */
export function grantIn(url: string): string | null {
  try {
    return new URL(url, 'http://localhost').searchParams.get('grant');
  } catch {
    return null;
  }
}

export const downloadKeys = {
  all: ['downloads'] as const,
  formats: (fundraiserId: number) => [...downloadKeys.all, 'formats', fundraiserId] as const,
  preparation: (path: string) => [...downloadKeys.all, 'preparation', path] as const,
};

/** The album's formats with their sizes; they change only when its music does. */
export function albumFormatsQueryOptions(fundraiserId: number) {
  return queryOptions({
    queryKey: downloadKeys.formats(fundraiserId),
    queryFn: ({ signal }) => apiRequest(`/api/fundraisers/${fundraiserId}/formats`, 'albumFormats', { signal }),
    staleTime: 5 * 60_000,
    retry: retryUnlessRefused,
  });
}

/** How far preparing `target` in `format` has come: read, and read again while it is under way. */
export function preparationQueryOptions(target: DownloadTarget, format: DownloadFormatId) {
  const path = target.preparationPath(format);
  return queryOptions({
    queryKey: downloadKeys.preparation(path),
    queryFn: ({ signal }) => apiRequest(path, 'formatPreparation', { signal }),
    // The answer a POST just gave counts as fresh: no second request for it.
    staleTime: PREPARATION_POLL_MS,
    refetchInterval: (query) => (query.state.data?.status === 'preparing' ? PREPARATION_POLL_MS : false),
    // A download starts by itself when it is ready, in a tab in the background too.
    refetchIntervalInBackground: true,
    retry: retryUnlessRefused,
  });
}

/**
 * Starts preparing (or joins the preparation another tab started; after a failure, tries the failed
 * tracks again). The server answers 202 with how far it has come, whatever that is.
 */
export function startPreparation(target: DownloadTarget, format: DownloadFormatId) {
  return apiRequest(target.preparationPath(format), 'formatPreparation', { method: 'POST' });
}
