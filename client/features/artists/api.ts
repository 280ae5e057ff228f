import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateArtistInput, type UpdateArtistInput } from '../../../shared/schemas/artists';
import type { Artist } from '../../../shared/answers/artists';
import { apiPaths } from '../../../shared/api-paths';
import { artistKeys } from '../../api/artists';
import { startFromFirstAnswer } from '../../api/first-answers';
import { apiRequest, retryUnlessRefused } from '../../api/http';

// The artist calls of spec part 1 section 7, each parsed by its shared schema.

export const artistByIdQueryOptions = (id: number) =>
  queryOptions({
    queryKey: artistKeys.byId(id),
    queryFn: () => apiRequest(apiPaths.artist(String(id)), 'artist'),
    retry: retryUnlessRefused,
    ...startFromFirstAnswer<Artist>(apiPaths.artist(String(id))),
  });

export const artistBySlugQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: artistKeys.bySlug(slug),
    queryFn: () => apiRequest(apiPaths.artist(slug), 'artist'),
    retry: retryUnlessRefused,
    ...startFromFirstAnswer<Artist>(apiPaths.artist(slug)),
  });

/** The user's list and every search page; an artist's own page is handled by the caller. */
function invalidateLists(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    queryKey: artistKeys.all,
    predicate: (query) => query.queryKey[1] !== artistKeys.details()[1],
  });
}

export function useCreateArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateArtistInput) => apiRequest('/api/artists/new', 'artist', { method: 'POST', json: input }),
    onSuccess: () => invalidateLists(queryClient),
  });
}

export function useUpdateArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateArtistInput }) =>
      apiRequest(`/api/artists/${id}/update`, 'artistUpdated', { method: 'PATCH', json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistKeys.all }),
  });
}

export function usePublishArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/artists/${id}/publish`, 'artist', { method: 'PATCH' }),
    onSuccess: (artist) => {
      queryClient.setQueryData(artistKeys.byId(artist.id), artist);
      if (artist.urlSlug) queryClient.setQueryData(artistKeys.bySlug(artist.urlSlug), artist);
      return invalidateLists(queryClient);
    },
  });
}

export function useDeleteArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (artist: Artist) => apiRequest(`/api/artists/${artist.id}`, 'ok', { method: 'DELETE' }),
    onSuccess: () => {
      // The page showing the artist is about to move on: marked stale, not fetched again into a 404.
      void queryClient.invalidateQueries({ queryKey: artistKeys.details(), refetchType: 'none' });
      return invalidateLists(queryClient);
    },
  });
}
