import type { FormErrorItem } from '../../shared/answers/api';
import type { Answer, AnswerName } from '../../shared/answers/registry';
import { ApiError, NetworkError, UnexpectedDataError } from './errors';

// The one fetch wrapper: same-origin cookies, the logged-out header, error envelopes, and every
// answer checked against its shared schema (spec part 1 section 5: 'Unexpected data returned...').
// The schemas (zod) load when the first answer from the network needs checking, not with the page
// (issue 13); the answers the server gave with the page start their queries without a request
// (first-answers.ts).

const loadAnswerSchemas = () => import('../../shared/answers/registry').then((m) => m.answerSchemas);
const loadErrorReader = () => import('./read-error');
const loadChecker = () => import('./check-answer');

/** Fetches the answers' schemas ahead of need, once the first page is drawn. */
export function preloadAnswerSchemas(): Promise<unknown> {
  return Promise.all([loadAnswerSchemas(), loadErrorReader(), loadChecker()]);
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
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, signal, credentials: 'same-origin' });
  } catch (error) {
    // fetch rejects without an answer only when the request was aborted or never got through.
    if (signal?.aborted) throw error;
    throw new NetworkError(error);
  }
  if (response.headers.get('x-logged-out') === 'true') onLoggedOut();
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  const [text, { apiErrorFrom, parseBody }] = await Promise.all([response.text().catch(() => ''), loadErrorReader()]);
  return apiErrorFrom(response.status, parseBody(text));
}

/**
 * Calls the API and checks the answer against the schema named `answer`
 * (shared/answers/registry.ts); throws ApiError or UnexpectedDataError.
 */
export async function apiRequest<N extends AnswerName>(
  path: string,
  answer: N,
  options: RequestOptions = {},
): Promise<Answer<N>> {
  // The schemas load while the request is on its way. If the request fails they are not waited
  // for, and their own failure (offline, before the service worker has them) is no news.
  const schemas = loadAnswerSchemas();
  schemas.catch(() => undefined);
  const response = await send(path, options);
  if (!response.ok) throw await toApiError(response);
  const body: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  const [{ checkAnswer }, schema] = await Promise.all([loadChecker(), schemas.then((all) => all[answer])]);
  const parsed = checkAnswer(schema, body);
  if (!parsed.success) throw new UnexpectedDataError();
  return parsed.data as Answer<N>;
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
