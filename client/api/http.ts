import type { z } from 'zod';
import { apiErrorSchema, type ErrorCode, type FormErrorItem, formErrorsSchema } from '../../shared/api';
import { messages } from '../../shared/messages';

// The one fetch wrapper: same-origin cookies, the logged-out header, error envelopes, and every
// answer parsed by its shared schema (spec part 1 section 5: 'Unexpected data returned...').

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly formErrors?: FormErrorItem[],
    /** A plain string body (some 400s answer text). */
    readonly text?: string,
    /** The whole JSON answer, for codes that carry more (INCORRECT_DISBURSEMENT_AMOUNT's outstandingAmountCents). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class UnexpectedDataError extends Error {
  constructor() {
    super(messages.unexpectedData);
    this.name = 'UnexpectedDataError';
  }
}

type LoggedOutListener = () => void;
let onLoggedOut: LoggedOutListener = () => {};

/** The session store registers here so any response carrying `x-logged-out` logs the user out. */
export function setLoggedOutListener(listener: LoggedOutListener) {
  onLoggedOut = listener;
}

/** For requests made without fetch (upload progress needs XMLHttpRequest): the same logout. */
export function notifyLoggedOut() {
  onLoggedOut();
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: Record<string, string>;
  signal?: AbortSignal;
};

async function send(path: string, { method = 'GET', json, form, signal }: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = new URLSearchParams(form);
  }
  const response = await fetch(path, { method, headers, body, signal, credentials: 'same-origin' });
  if (response.headers.get('x-logged-out') === 'true') onLoggedOut();
  return response;
}

/** An answer's body: its JSON, or its text as it is when it is not JSON. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one reading of a failed answer (fetch and upload requests alike): `{ formErrors }`,
 * `{ code, message }`, or a plain sentence meant for the user (spec: '400 with a string body
 * shows the string'). Anything else (a proxy's 502 page, an empty body) is the generic message.
 */
export function apiErrorFrom(status: number, body: unknown): ApiError {
  const formErrors = formErrorsSchema.safeParse(body);
  if (formErrors.success) {
    const first = formErrors.data.formErrors[0]?.message ?? 'input is invalid';
    return new ApiError(status, first, undefined, formErrors.data.formErrors);
  }
  const apiError = apiErrorSchema.safeParse(body);
  if (apiError.success)
    return new ApiError(status, apiError.data.message, apiError.data.code, undefined, undefined, body);
  const isSentence =
    typeof body === 'string' && status < 500 && body.length > 0 && body.length <= 2000 && !/^\s*</.test(body);
  return isSentence ? new ApiError(status, body, undefined, undefined, body) : new ApiError(status, messages.generic);
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  return apiErrorFrom(response.status, parseBody(text));
}

/** Calls the API and parses the answer with `schema`; throws ApiError or UnexpectedDataError. */
export async function apiRequest<T extends z.ZodType>(
  path: string,
  schema: T,
  options: RequestOptions = {},
): Promise<z.infer<T>> {
  const response = await send(path, options);
  if (!response.ok) throw await toApiError(response);
  const body: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UnexpectedDataError();
  return parsed.data;
}

/** The message to show for a failed call: the server's own words where it sent any. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof UnexpectedDataError) return error.message;
  if (error instanceof ApiError && (error.code || error.text)) return error.message;
  return fallback;
}

/** The field errors of a 400 `{ formErrors }` answer, for a form to show (none for any other failure). */
export function formErrorsOf(error: unknown): FormErrorItem[] {
  return error instanceof ApiError ? (error.formErrors ?? []) : [];
}

/** Whether a call failed with 404: the thing is not there (or not this caller's to see). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A refusal (4xx: not found, forbidden) will not change on a second try; a network blip might. */
export function retryUnlessRefused(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}
