import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { PAGE_SIZE } from '../../../shared/constants';
import {
  adminMoneyMessages,
  type CallbackAction,
  type ManualDisbursementInput,
} from '../../../shared/schemas/admin-money';
import { apiRequest } from '../../api/http';
import { ApiError } from '../../api/errors';
import { ledgerKey } from '../../api/ledger';

// The admin money calls (spec part 2 section 7; DESIGN.md "Contract details for money, admin").

export const adminMoneyKeys = {
  all: ['admin-money'] as const,
  transactions: (page: number) => ['admin-money', 'transactions', page] as const,
  summaries: ['admin-money', 'disbursements'] as const,
  history: (ein: string, page: number) => ['admin-money', 'disbursements', ein, page] as const,
  reconciliation: (from: string, to: string) => ['admin-money', 'reconciliation', from, to] as const,
};

export function transactionsQueryOptions(page: number) {
  return queryOptions({
    queryKey: adminMoneyKeys.transactions(page),
    queryFn: () => apiRequest(`/api/admin/transactions?page=${page}&page_size=${PAGE_SIZE}`, 'adminTransactions'),
    placeholderData: keepPreviousData,
  });
}

/** Asks the processor again for the fees it never reported; every money figure is stale after. */
export function useAskAgainForFees() {
  const refresh = useRefreshMoney();
  return useMutation({
    mutationFn: () => apiRequest('/api/admin/transactions/fee-checks', 'feeChecks', { method: 'POST', json: {} }),
    onSettled: refresh,
  });
}

export function reconciliationQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: adminMoneyKeys.reconciliation(from, to),
    queryFn: () =>
      apiRequest(
        `/api/admin/reconciliation?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        'reconciliation',
      ),
    placeholderData: keepPreviousData,
  });
}

export const summariesQueryOptions = queryOptions({
  queryKey: adminMoneyKeys.summaries,
  queryFn: () => apiRequest('/api/admin/disbursements', 'disbursementSummaries'),
});

export function historyQueryOptions(ein: string, page: number) {
  return queryOptions({
    queryKey: adminMoneyKeys.history(ein, page),
    queryFn: () =>
      apiRequest(
        `/api/admin/disbursements/${encodeURIComponent(ein)}?page=${page}&page_size=${PAGE_SIZE}`,
        'disbursementHistory',
      ),
    placeholderData: keepPreviousData,
  });
}

/** Every money figure an admin or the public ledger shows is stale after any change. */
function useRefreshMoney() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminMoneyKeys.all }),
      queryClient.invalidateQueries({ queryKey: ledgerKey }),
    ]);
}

export function useInitializeDisbursement() {
  return useMutation({
    mutationFn: (input: { ein: string; amountCents: number }) =>
      apiRequest('/api/admin/disbursement/initialize', 'disbursementStarted', { method: 'POST', json: input }),
  });
}

const incorrectAmountSchema = z.object({ outstandingAmountCents: z.int() });

/** Spec part 2 section 8, Disbursement initialize: the two known refusals in words, else 'something went wrong'. */
export function initializeErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return adminMoneyMessages.generic;
  if (error.code === 'PENDING_DISBURSEMENT') return adminMoneyMessages.pendingDisbursement;
  if (error.code === 'INCORRECT_DISBURSEMENT_AMOUNT') {
    const details = incorrectAmountSchema.safeParse(error.body);
    return details.success ? adminMoneyMessages.incorrectAmount(details.data.outstandingAmountCents) : error.message;
  }
  return error.formErrors?.[0]?.message ?? adminMoneyMessages.generic;
}

export function useUpdateDisbursementStatus() {
  const refresh = useRefreshMoney();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'COMPLETE' | 'CANCELED' | 'FAILED' }) =>
      apiRequest(`/api/admin/disbursement/${id}`, 'disbursement', { method: 'PATCH', json: { status } }),
    onSettled: refresh,
  });
}

export function useDisbursementCallback() {
  const refresh = useRefreshMoney();
  return useMutation({
    mutationFn: ({ id, action, callbackSecret }: { id: number; action: CallbackAction; callbackSecret: string }) =>
      apiRequest(`/api/admin/disbursement/${id}/callback`, 'disbursementCallback', {
        method: 'PATCH',
        json: { action, callbackSecret },
      }),
    onSettled: refresh,
  });
}

export function useRecordManualDisbursement() {
  const refresh = useRefreshMoney();
  return useMutation({
    mutationFn: (input: ManualDisbursementInput) =>
      apiRequest('/api/admin/disbursements', 'disbursement', { method: 'POST', json: input }),
    onSuccess: refresh,
  });
}
