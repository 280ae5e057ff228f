import * as z from 'zod/mini';
import { ERROR_CODES } from '../api';
import { limits } from '../constants';

// Error envelopes of spec part 1 section 3 and section 8, as the client reads them from any
// failed call (so on every page's first load: zod/mini keeps that parser small).

export const apiErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string().check(z.maxLength(limits.errorMessage)),
  /**
   * FILE_NO_LONGER_AVAILABLE: the payload's field that named the upload gone (the first, when
   * several did) and every such field, so a form marks each (server/errors.ts).
   */
  field: z.optional(z.string()),
  fields: z.optional(z.array(z.string())),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export const formErrorSchema = z.object({
  code: z.optional(z.string()),
  field: z.optional(z.string()),
  message: z.string(),
});
export type FormErrorItem = z.infer<typeof formErrorSchema>;

export const formErrorsSchema = z.object({ formErrors: z.array(formErrorSchema) });
export type FormErrorsBody = z.infer<typeof formErrorsSchema>;

export const listEnvelope = <T extends z.ZodMiniType>(item: T) =>
  z.object({ results: z.array(item), totalCount: z.int().check(z.nonnegative()) });

export const okSchema = z.object({ ok: z.literal(true) });
