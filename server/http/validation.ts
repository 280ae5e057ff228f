import type { Context } from 'hono';
import type { z } from 'zod';
import type { FormErrorItem } from '../../shared/answers/api';
import { FormError, invalid, unsupportedMedia } from '../errors';

// Request parsing: every body is parsed by its shared zod schema, never cast (STYLE.md).

/** One error per field, the first rule it breaks, as the form shows it. */
export function toFormErrors(error: z.ZodError): FormErrorItem[] {
  const seen = new Set<string>();
  const formErrors: FormErrorItem[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    formErrors.push({ field: field || undefined, message: issue.message, code: issue.code });
  }
  return formErrors;
}

export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new FormError(toFormErrors(result.error));
  return result.data;
}

function contentType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A JSON body parsed by `schema`; other content types get 415 (DESIGN.md contract details). */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  if (contentType(c) !== 'application/json') {
    throw unsupportedMedia('Please send this request as JSON (Content-Type: application/json).');
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
  return parseWith(schema, body);
}

/** An application/x-www-form-urlencoded body parsed by `schema` (used by POST /api/login). */
export async function formBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = contentType(c);
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    throw unsupportedMedia('Please send this request as a form (application/x-www-form-urlencoded).');
  }
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw invalid('The request body is not a valid form.');
  }
  return parseWith(schema, form);
}

/**
 * A multipart body as the upload services take it: the raw stream, its content type and the
 * length it announced (to refuse an upload too big for its quota before reading it).
 */
export function multipartRequest(c: Context) {
  const length = Number(c.req.header('content-length'));
  return {
    body: c.req.raw.body,
    contentType: c.req.header('content-type') ?? '',
    declaredBytes: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
  };
}
