import { ApiError } from '../../api/errors';

// Past a payment limit (server/features/donations/throttles.ts), the server answers 429
// RATE_LIMITED in words meant for the donor, saying when to try again: the donate flow shows them
// as they are, where it would otherwise say only that something unexpected happened.

/** The server's message for too many attempts, else null. */
export function rateLimitText(error: unknown): string | null {
  return error instanceof ApiError && error.code === 'RATE_LIMITED' ? error.message : null;
}
