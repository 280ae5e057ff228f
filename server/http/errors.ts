import type { ErrorCode, FormErrorItem } from '../../shared/api';

// Typed errors thrown by services and mapped to HTTP in one place (http/app-errors.ts's onError).

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

export class AppError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class FormError extends Error {
  constructor(readonly formErrors: FormErrorItem[]) {
    super(formErrors.map((error) => error.message).join(' '));
    this.name = 'FormError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'OTHER') => new AppError(400, code, message);
export const unauthorized = (message: string) => new AppError(401, 'OTHER', message);
export const forbidden = (message: string) => new AppError(403, 'OTHER', message);
export const notFound = (message: string) => new AppError(404, 'OTHER', message);
export const conflict = (message: string) => new AppError(409, 'OTHER', message);
export const serviceUnavailable = (message: string) => new AppError(503, 'OTHER', message);
export const tooManyRequests = (message: string, code: ErrorCode = 'RATE_LIMITED') => new AppError(429, code, message);
