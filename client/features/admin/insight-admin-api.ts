import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../api/http';

// GET /api/admin/insight?days=N|all (issue 29; admins): the site's days, and what only an admin sees.

export const adminInsightKeys = {
  all: ['admin-insight'] as const,
  period: (days: string) => [...adminInsightKeys.all, days] as const,
};

export function adminInsightQueryOptions(days: string) {
  return queryOptions({
    queryKey: adminInsightKeys.period(days),
    queryFn: () => apiRequest(`/api/admin/insight?days=${encodeURIComponent(days)}`, 'adminInsight'),
    // Another period keeps the charts in place until its figures come.
    placeholderData: keepPreviousData,
  });
}
