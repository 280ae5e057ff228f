import { useMutation, useQueryClient } from '@tanstack/react-query';
import { charityKeys } from '../../api/fundraisers';
import { apiRequest } from '../../api/http';

/** PUT /api/admin/featured-charities: the home page's charities, in order; the answer is the new list. */
export function useUpdateFeaturedCharities() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eins: string[]) =>
      apiRequest('/api/admin/featured-charities', 'featuredCharities', { method: 'PUT', json: { eins } }),
    onSuccess: (saved) => queryClient.setQueryData(charityKeys.featured(), saved),
  });
}
