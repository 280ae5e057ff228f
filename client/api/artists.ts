import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type ArtistSearch } from '../../shared/api-paths';
import type { Answer } from '../../shared/answers/registry';
import { startFromFirstAnswer } from './first-answers';
import { apiRequest } from './http';

type ArtistSearchResult = Answer<'artistSearch'>;

/**
 * Query keys of every artist query, in one place for the artists feature and the browse page, so
 * invalidating `all` after a save or delete reaches every list, search results included.
 */
export const artistKeys = {
  all: ['artists'] as const,
  user: () => [...artistKeys.all, 'user'] as const,
  details: () => [...artistKeys.all, 'detail'] as const,
  byId: (id: number) => [...artistKeys.details(), 'id', id] as const,
  bySlug: (slug: string) => [...artistKeys.details(), 'slug', slug] as const,
  search: (searchTerm: string, page: number) => [...artistKeys.all, 'search', { searchTerm, page }] as const,
};

/** GET /api/artists/search, 20 to a page. */
export function artistSearchQueryOptions(search: ArtistSearch) {
  return queryOptions({
    queryKey: artistKeys.search(search.searchTerm, search.page),
    queryFn: () => apiRequest(apiPaths.artistSearch(search), 'artistSearch'),
    ...startFromFirstAnswer<ArtistSearchResult>(apiPaths.artistSearch(search)),
  });
}

/** GET /api/artists/user: the artists feature and the fundraiser wizard share this cache entry. */
export const userArtistsQueryOptions = queryOptions({
  queryKey: artistKeys.user(),
  queryFn: () => apiRequest('/api/artists/user', 'artistList'),
});
