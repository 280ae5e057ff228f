import type { LoaderFunctionArgs } from 'react-router';
import { apiRequest } from '../../api/http';
import { ApiError } from '../../api/errors';

export type ResetTokenState = { status: 'valid'; email: string; token: string } | { status: 'expired' };

/** Validates the reset token before the page shows (spec part 1 section 2, password reset). */
export async function resetTokenLoader({ params }: LoaderFunctionArgs): Promise<ResetTokenState> {
  const token = params.resetToken ?? '';
  try {
    const { email } = await apiRequest(`/api/token-user/${encodeURIComponent(token)}`, 'tokenUser');
    return { status: 'valid', email, token };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { status: 'expired' };
    throw error;
  }
}
