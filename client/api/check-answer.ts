import { safeParse } from 'zod/mini';
import type * as z from 'zod/mini';

/** An answer checked against its schema (loaded with the schemas, after the first page: http.ts). */
export function checkAnswer<T extends z.core.$ZodType>(schema: T, body: unknown) {
  return safeParse(schema, body);
}
