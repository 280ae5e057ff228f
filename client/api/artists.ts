import { queryOptions } from '@tanstack/react-query';
import { PAGE_SIZE } from '../../shared/constants';
import { artistListSchema, artistSearchResultSchema } from '../../shared/schemas/artists';
import { apiRequest } from './http';

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
export function artistSearchQueryOptions({ searchTerm, page }: { searchTerm: string; page: number }) {
  const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), searchTerm });
  return queryOptions({
    queryKey: artistKeys.search(searchTerm, page),
    queryFn: () => apiRequest(`/api/artists/search?${query}`, artistSearchResultSchema),
  });
}

/** GET /api/artists/user: the artists feature and the fundraiser wizard share this cache entry. */
export const userArtistsQueryOptions = queryOptions({
  queryKey: artistKeys.user(),
  queryFn: () => apiRequest('/api/artists/user', artistListSchema),
});
