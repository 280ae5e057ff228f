import { queryOptions } from '@tanstack/react-query';
import { PAGE_SIZE } from '../../shared/constants';
import { apiRequest, retryUnlessRefused } from './http';

// Your music (spec part 1 sections 2 and 7): the two album lists and one album.

/** The two lists, named as the /music/albums/{tab} routes name them. */
export type LibraryTab = 'past-donations' | 'user';

const listPaths: Record<LibraryTab, string> = {
  'past-donations': '/api/music-library/purchases',
  user: '/api/music-library/user',
};

export const libraryKeys = {
  all: ['music-library'] as const,
  list: (tab: LibraryTab, page: number) => [...libraryKeys.all, 'list', tab, page] as const,
  album: (slugOrId: string) => [...libraryKeys.all, 'album', slugOrId] as const,
};

/** One page (zero-based) of a library list, 20 albums to a page. */
export function libraryListQueryOptions(tab: LibraryTab, page: number) {
  const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  return queryOptions({
    queryKey: libraryKeys.list(tab, page),
    queryFn: () => apiRequest(`${listPaths[tab]}?${query}`, 'libraryAlbums'),
  });
}

/** The album page's `{projectSlug}`: digits are a fundraiser id (a draft without a slug), else a slug. */
export function libraryAlbumQueryOptions(slugOrId: string) {
  const path = /^\d+$/.test(slugOrId)
    ? `/api/music-library/album/${slugOrId}`
    : `/api/music-library/album/slug/${encodeURIComponent(slugOrId)}`;
  return queryOptions({
    queryKey: libraryKeys.album(slugOrId),
    queryFn: () => apiRequest(path, 'libraryAlbum'),
    // 404 is the answer for an album that is not the caller's: asking again changes nothing.
    retry: retryUnlessRefused,
  });
}
