import type { ErrorCode } from '../shared/api';
import type { FormErrorItem } from '../shared/answers/api';

// Errors services throw, in domain terms. Only http/app-errors.ts knows which HTTP status each
// kind becomes, so nothing below a route knows about HTTP (DESIGN.md section 1).

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'payment-refused'
  | 'too-large'
  | 'unsupported-media'
  | 'rate-limited'
  /** A form of answer the server does not make (oEmbed's XML). */
  | 'not-implemented'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    /** More fields for the client beside code and message (INCORRECT_DISBURSEMENT_AMOUNT's outstandingAmountCents). */
    readonly details: Record<string, string | number | string[]> = {},
    /** For a refusal of too many attempts: when one more would be taken (the answer's Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Field-level validation failures: answered as `{ formErrors }`. */
export class FormError extends Error {
  constructor(readonly formErrors: FormErrorItem[]) {
    super(formErrors.map((error) => error.message).join(' '));
    this.name = 'FormError';
  }
}

export const invalid = (message: string, code: ErrorCode = 'OTHER', details?: Record<string, string | number>) =>
  new AppError('invalid', code, message, details);

/** An upload a save named, as the user knows it: its field and what it is ('album cover'). */
export type NamedUpload = { field: string; name: string };

/**
 * A save named uploads that are gone (spec part 1 section 8, FILE_NO_LONGER_AVAILABLE): 400
 * `{ code, message, field, fields }`, `field` the first such field and `fields` every one, so a
 * form puts the message on each and asks for the files again.
 */
export function filesNoLongerAvailable(files: NamedUpload[]): AppError {
  const names = files.map((file) => file.name);
  const what =
    names.length === 1
      ? `The ${names[0]} is`
      : names.length <= 3
        ? `The ${names.slice(0, -1).join(', ')} and ${names.at(-1)} are`
        : `${names.length} of the files you uploaded are`;
  const message = `${what} no longer available: uploads not saved within an hour are removed. Please upload ${names.length === 1 ? 'it' : 'them'} again.`;
  return new AppError('invalid', 'FILE_NO_LONGER_AVAILABLE', message, {
    field: files[0]!.field,
    fields: files.map((file) => file.field),
  });
}
export const unauthenticated = (message: string) => new AppError('unauthenticated', 'OTHER', message);
export const forbidden = (message: string) => new AppError('forbidden', 'OTHER', message);
export const notFound = (message: string) => new AppError('not-found', 'OTHER', message);
/** 409: the request does not fit what it names as it is now (a paid intent, a taken email, a settled disbursement). */
export const conflict = (message: string) => new AppError('conflict', 'OTHER', message);
export const unsupportedMedia = (message: string) => new AppError('unsupported-media', 'OTHER', message);
/** A card the payment provider refused (402): the donor may try another. */
export const paymentRefused = (message: string) => new AppError('payment-refused', 'OTHER', message);
export const unavailable = (message: string, retryAfterMs?: number) =>
  new AppError('unavailable', 'OTHER', message, {}, retryAfterMs);
export const rateLimited = (message: string, code: ErrorCode = 'RATE_LIMITED', retryAfterMs?: number) =>
  new AppError('rate-limited', code, message, {}, retryAfterMs);
