import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './http';

/** GET /api/ledger, the public "Where the money goes"; admins' money changes invalidate it. */
export const ledgerKey = ['ledger'] as const;

export const ledgerQueryOptions = queryOptions({
  queryKey: ledgerKey,
  queryFn: () => apiRequest('/api/ledger', 'ledger'),
});
