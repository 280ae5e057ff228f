import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest, retryUnlessRefused } from '../../api/http';

// The giving history's calls (issue 26; DESIGN.md "Contract details for wave 3", giving history):
// one year of the signed-in donor's payments, a receipt's copy, and the year's statement (a file
// the browser downloads itself, with the session's cookie).

export const givingKeys = {
  all: ['giving'] as const,
  /** null: the year the server opens on (the newest with a payment). */
  year: (year: number | null) => ['giving', year ?? 'newest'] as const,
};

export const givingPaths = {
  year: (year: number | null) => (year === null ? '/api/giving' : `/api/giving?year=${year}`),
  receiptCopy: (paymentIntentId: string) => `/api/giving/receipts/${encodeURIComponent(paymentIntentId)}`,
  statement: (year: number) => `/api/giving/statement/${year}.pdf`,
};

export function givingQueryOptions(year: number | null) {
  return queryOptions({
    queryKey: givingKeys.year(year),
    queryFn: () => apiRequest(givingPaths.year(year), 'giving'),
    // The year just left stays on screen while the one picked loads.
    placeholderData: keepPreviousData,
    // A year refused (400) or an address not verified (403) is the same answer next time.
    retry: retryUnlessRefused,
  });
}

/** Sends one payment's receipt again, to the donor's address; the server allows one per 10 minutes. */
export function useResendReceipt() {
  return useMutation({
    mutationFn: (paymentIntentId: string) =>
      apiRequest(givingPaths.receiptCopy(paymentIntentId), 'receiptCopy', { method: 'POST' }),
  });
}
