import { queryOptions } from '@tanstack/react-query';
import type { FundraiserInsight } from '../../../shared/answers/insight';
import { fundraiserKeys } from '../../api/fundraisers';
import { apiRequest, retryUnlessRefused } from '../../api/http';

// GET /api/fundraisers/{id}/insight?days=N|all (issue 29; owner and admins): the fundraiser's days.
// Under the fundraisers' keys, so whatever refreshes every fundraiser query refreshes this too.

export const insightKey = (id: number, days: string) => [...fundraiserKeys.all, 'insight', id, days] as const;

export function fundraiserInsightQueryOptions(id: number, days: string) {
  return queryOptions({
    queryKey: insightKey(id, days),
    queryFn: () => apiRequest(`/api/fundraisers/${id}/insight?days=${encodeURIComponent(days)}`, 'fundraiserInsight'),
    retry: retryUnlessRefused,
    // Another period keeps the charts in place until its figures come (the same fundraiser's only).
    placeholderData: (previous: FundraiserInsight | undefined) =>
      previous?.fundraiser.id === id ? previous : undefined,
  });
}
