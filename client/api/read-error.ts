import { apiErrorSchema, formErrorsSchema } from '../../shared/answers/api';
import { messages } from '../../shared/messages';
import { ApiError } from './errors';

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

/** An answer's body: its JSON, or its text as it is when it is not JSON. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
