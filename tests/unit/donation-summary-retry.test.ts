import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/api/errors';
import { SUMMARY_ATTEMPTS, transactionSummaryQueryOptions } from '../../client/features/donations/donations-api';

// The success page's summary (spec part 2 section 2): 4 attempts, and after a 404 (the payment is
// not fulfilled yet) the next waits (attempt + 1) × 2 s; any other failure is final at once.
// TanStack Query asks `retry(failuresSoFar - 1, error)` and `retryDelay(failuresSoFar - 1, error)`
// after each failure (query-core's retryer), so these are the calls it makes.

const options = transactionSummaryQueryOptions('pi_123');
const retry = options.retry as (failureCount: number, error: Error) => boolean;
const retryDelay = options.retryDelay as (failureCount: number, error: Error) => number;
const notFound = new ApiError(404, 'Payment not found.');

describe('the success page summary retries', () => {
  it('tries 4 times in all while the answer is 404', () => {
    expect(SUMMARY_ATTEMPTS).toBe(4);
    expect([0, 1, 2, 3].map((failures) => retry(failures, notFound))).toEqual([true, true, true, false]);
  });

  it('waits 2, 4 and 6 seconds between the attempts', () => {
    expect([0, 1, 2].map((failures) => retryDelay(failures, notFound))).toEqual([2000, 4000, 6000]);
  });

  it('does not retry any other failure', () => {
    for (const error of [
      new ApiError(500, 'Server error'),
      new ApiError(400, 'Bad request'),
      new TypeError('Failed to fetch'),
    ]) {
      expect(retry(0, error)).toBe(false);
    }
  });
});
