// Error codes and the server's messages (spec part 1 sections 3 and 8); the envelopes' schemas
// are in answers/api.ts.

export const ERROR_CODES = [
  'EMAIL_ALREADY_VERIFIED',
  'INVALID_VERIFICATION_CODE',
  'VERIFICATION_ATTEMPTS_EXCEEDED',
  'RATE_LIMITED',
  'PENDING_DISBURSEMENT',
  'INCORRECT_DISBURSEMENT_AMOUNT',
  'FILE_NO_LONGER_AVAILABLE',
  'OTHER',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Messages the server sends that the client also knows by heart (spec part 1 section 8). */
export const serverMessages = {
  incorrectLogin: 'Incorrect email or password.',
  duplicateUser: 'a user with this email already exists',
  invalidResetToken: 'Password reset token is not valid. Please create a new password reset email.',
  loginRequired: 'You need to log in first.',
  verifiedEmailRequired: 'Please verify your email address first.',
  adminRequired: 'Only admins can do that.',
  rateLimited: 'Too many attempts. Please wait a few minutes and try again.',
  resendTooSoon: 'Please wait a minute before requesting another code.',
  tooManyCodes: 'You have asked for many codes today. Please check your inbox and spam folder, or try again tomorrow.',
  alreadyVerified: 'Your email address is already verified.',
  invalidCode: 'That verification code is not correct.',
  expiredCode: 'That verification code has expired. Please request a new one.',
  attemptsExceeded: 'Too many incorrect codes. Please request a new verification code.',
  crossOrigin: 'Cross-origin requests are not allowed.',
  notFound: 'Not found.',
  emailFailed: 'We could not send the email just now. Please try again in a few minutes.',
  /** A receipt's link that never was one (or whose album was refunded). */
  purchaseLinkNotValid:
    'This download link is not valid. Check that it is the whole link from your receipt, or contact us.',
  /**
   * A receipt's link that was one and ran out. Both are 404 (DESIGN.md, receipt: "unknown or
   * expired → 404"); the purchase page tells them apart by this message.
   */
  purchaseLinkExpired: 'This download link has expired. Log in to Your music with the email address you donated with.',
  tooManyPayments: 'Too many payment attempts.',
  tooManyDeclines: 'Too many declined payments.',
  /** Beside each field a FILE_NO_LONGER_AVAILABLE answer names (the answer's own message says which). */
  fileNoLongerAvailable: 'This file is no longer available. Please upload it again.',
} as const;

/** When to come back, in words: a refusal's Retry-After rounded up to the minute. */
export function tryAgainIn(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
