import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import { fundraiserKeys } from '../../api/fundraisers';
import { apiRequest } from '../../api/http';
import { ApiError } from '../../api/errors';

/** The picker's page: spec part 2 section 7 has it ask the public search for 100 at a time. */
const PICKER_PAGE_SIZE = 100;

/** GET /api/fundraisers/search for the picker: published fundraisers matching the typed term. */
export function pickerSearchQueryOptions(searchTerm: string) {
  const query = new URLSearchParams({ page: '0', pageSize: String(PICKER_PAGE_SIZE), searchTerm });
  return queryOptions({
    queryKey: [...fundraiserKeys.all, 'featured-picker', searchTerm] as const,
    queryFn: () => apiRequest(`/api/fundraisers/search?${query}`, 'fundraiserSearch'),
    staleTime: 30_000,
  });
}

/** PUT /api/admin/projects/featured: a bare array of ids, in the home page's order. */
export function useUpdateFeaturedFundraisers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => apiRequest('/api/admin/projects/featured', 'ok', { method: 'PUT', json: ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fundraiserKeys.featured() }),
  });
}

/** Spec part 2 section 8, Featured update: a 400 that says why shows it; anything else the fallback. */
export function featuredUpdateErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 400) return adminMoneyMessages.featuredUpdateFailed;
  return (
    error.text ??
    error.formErrors?.[0]?.message ??
    (error.code ? error.message : adminMoneyMessages.featuredUpdateFailed)
  );
}
