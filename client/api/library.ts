import { queryOptions } from '@tanstack/react-query';
import type { LibraryAlbumDetail, LibraryAlbumList } from '../../shared/answers/library';
import { apiPaths, type LibraryTab } from '../../shared/api-paths';
import { startFromFirstAnswer } from './first-answers';
import { apiRequest, retryUnlessRefused } from './http';

// Your music (spec part 1 sections 2 and 7): the two album lists and one album.

export const libraryKeys = {
  all: ['music-library'] as const,
  list: (tab: LibraryTab, page: number) => [...libraryKeys.all, 'list', tab, page] as const,
  album: (slugOrId: string) => [...libraryKeys.all, 'album', slugOrId] as const,
};

/** One page (zero-based) of a library list, 20 albums to a page. */
export function libraryListQueryOptions(tab: LibraryTab, page: number) {
  return queryOptions({
    queryKey: libraryKeys.list(tab, page),
    queryFn: () => apiRequest(apiPaths.libraryList(tab, page), 'libraryAlbums'),
    ...startFromFirstAnswer<LibraryAlbumList>(apiPaths.libraryList(tab, page)),
  });
}

/** The album page's `{projectSlug}`: digits are a fundraiser id (a draft without a slug), else a slug. */
export function libraryAlbumQueryOptions(slugOrId: string) {
  return queryOptions({
    queryKey: libraryKeys.album(slugOrId),
    queryFn: () => apiRequest(apiPaths.libraryAlbum(slugOrId), 'libraryAlbum'),
    ...startFromFirstAnswer<LibraryAlbumDetail>(apiPaths.libraryAlbum(slugOrId)),
    // 404 is the answer for an album that is not the caller's: asking again changes nothing.
    retry: retryUnlessRefused,
  });
}
