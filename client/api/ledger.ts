import { queryOptions } from '@tanstack/react-query';
import type { Answer } from '../../shared/answers/registry';
import { apiPaths } from '../../shared/api-paths';
import { startFromFirstAnswer } from './first-answers';
import { apiRequest } from './http';

/** GET /api/ledger, the public "Where the money goes"; admins' money changes invalidate it. */
export const ledgerKey = ['ledger'] as const;

export const ledgerQueryOptions = queryOptions({
  queryKey: ledgerKey,
  queryFn: () => apiRequest(apiPaths.ledger, 'ledger'),
  ...startFromFirstAnswer<Answer<'ledger'>>(apiPaths.ledger),
});
