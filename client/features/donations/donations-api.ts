import { queryOptions, useMutation } from '@tanstack/react-query';
import { type PaymentIntentRequest } from '../../../shared/schemas/donations';
import { type PaymentConfig } from '../../../shared/answers/donations';
import { apiPaths } from '../../../shared/api-paths';
import { startFromFirstAnswer } from '../../api/first-answers';
import { apiRequest, retryUnlessRefused } from '../../api/http';
import { ApiError } from '../../api/errors';

// The donate flow's calls (spec part 2 section 7; DESIGN.md "Contract details for money").

export const donationKeys = {
  config: ['payments', 'config'] as const,
  summary: (paymentIntentId: string) => ['payments', 'summary', paymentIntentId] as const,
  purchase: (token: string) => ['purchases', token] as const,
  returning: (clientSecret: string) => ['payments', 'returning', clientSecret] as const,
};

export const paymentConfigQueryOptions = queryOptions({
  queryKey: donationKeys.config,
  queryFn: () => apiRequest(apiPaths.paymentConfig, 'paymentConfig'),
  // Given with the donate pages (shared/first-requests.ts).
  ...startFromFirstAnswer<PaymentConfig>(apiPaths.paymentConfig, Infinity),
});

export function useCreatePaymentIntent() {
  return useMutation({
    mutationFn: (input: PaymentIntentRequest) =>
      apiRequest('/api/transactions/create-payment-intent', 'paymentIntent', { method: 'POST', json: input }),
  });
}

export function useConfirmTestPayment() {
  return useMutation({
    mutationFn: (input: { clientSecret: string; cardNumber: string; expiry: string; cvc: string }) =>
      apiRequest('/api/test-payments/confirm', 'testPayment', { method: 'POST', json: input }),
  });
}

/** Spec part 2 section 2: 4 attempts; after a 404 (not fulfilled yet) the next waits (attempt + 1) × 2 s. */
export const SUMMARY_ATTEMPTS = 4;

export function transactionSummaryQueryOptions(paymentIntentId: string) {
  return queryOptions({
    queryKey: donationKeys.summary(paymentIntentId),
    queryFn: () =>
      apiRequest(
        `/api/transactions/query?paymentIntentId=${encodeURIComponent(paymentIntentId)}`,
        'transactionSummary',
      ),
    retry: (failureCount, error) =>
      error instanceof ApiError && error.status === 404 && failureCount < SUMMARY_ATTEMPTS - 1,
    retryDelay: (failureCount) => (failureCount + 1) * 2000,
    staleTime: Infinity,
  });
}

export function purchaseLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: donationKeys.purchase(token),
    queryFn: () => apiRequest(`/api/purchases/${encodeURIComponent(token)}`, 'purchaseLink'),
    retry: retryUnlessRefused,
  });
}

/**
 * Spec part 2 section 4, Payment: a donor who comes back to the donate page with an intent (Stripe
 * sends them back after a failed bank check) sees whether it still needs paying. Asked of whichever
 * provider holds it; Stripe.js is loaded only for this.
 */
export function returningPaymentQueryOptions(config: PaymentConfig | undefined, clientSecret: string) {
  return queryOptions({
    queryKey: donationKeys.returning(clientSecret),
    enabled: config !== undefined && clientSecret !== '',
    queryFn: async () => {
      if (!config) throw new Error('The payment settings have not loaded.');
      if (config.provider === 'test') {
        return apiRequest(`/api/test-payments/intent?clientSecret=${encodeURIComponent(clientSecret)}`, 'testIntent');
      }
      const { stripeIntentStatus } = await import('./stripe-loader');
      return stripeIntentStatus(config.publishableKey, clientSecret);
    },
    retry: false,
    staleTime: Infinity,
  });
}
