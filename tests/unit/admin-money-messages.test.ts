import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/api/errors';
import { initializeErrorMessage } from '../../client/features/admin/admin-money-api';

// What the Disburse dialog says when the server refuses (spec part 2 section 8, Disbursement
// initialize): each known code in the spec's words, anything else 'something went wrong'.

describe('the Disburse dialog’s refusals', () => {
  it('says a pending disbursement must be resolved in the history first', () => {
    const refusal = new ApiError(400, 'from the server', 'PENDING_DISBURSEMENT', undefined, undefined, {
      code: 'PENDING_DISBURSEMENT',
    });
    expect(initializeErrorMessage(refusal)).toBe(
      'This charity already has a pending disbursement. Please complete or cancel it in the disbursement history first.',
    );
  });

  it('says the outstanding amount is less than the amount, with the amount, and to refresh', () => {
    const body = { code: 'INCORRECT_DISBURSEMENT_AMOUNT', outstandingAmountCents: 1234567, message: 'x' };
    const refusal = new ApiError(400, 'x', 'INCORRECT_DISBURSEMENT_AMOUNT', undefined, undefined, body);
    expect(initializeErrorMessage(refusal)).toBe(
      'The outstanding amount ($12,345.67) is less than the amount being disbursed. Please refresh the page and try again.',
    );
  });

  it("says 'something went wrong' otherwise", () => {
    expect(initializeErrorMessage(new Error('Failed to fetch'))).toBe('something went wrong');
    expect(initializeErrorMessage(new ApiError(500, 'Sorry, something went wrong. Please try again later.'))).toBe(
      'something went wrong',
    );
  });
});
