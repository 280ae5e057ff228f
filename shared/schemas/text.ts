import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';

// Building blocks for every text field: trimmed, with the spec's exact messages (part 1 section 5).

/** Required text, trimmed, at most `max` characters. */
export function requiredText(label: string, max: number) {
  return z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(max, messages.max(label, max));
}

/** Optional text; missing and blank both read as an empty string. */
export function optionalText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, messages.max(label, max))
    .optional()
    .transform((value) => value ?? '');
}

/** Required text of exactly `length` characters. */
export function exactText(label: string, length: number) {
  return z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .length(length, messages.exactly(label, length));
}

/** An email address under this label, trimmed and lower-cased. */
export function emailFieldFor(label: string) {
  return z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(limits.email, messages.max(label, limits.email))
    .pipe(z.email(messages.email))
    .transform((email) => email.toLowerCase());
}

export const emailField = emailFieldFor('Email');

function isParsableUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.hostname.includes('.') || url.hostname === 'localhost';
  } catch {
    return false;
  }
}

/** A URL field that may be left empty (spec: 'empty allowed where the field is optional'). */
export function optionalUrl(label = 'Website') {
  return z
    .string()
    .trim()
    .max(limits.url, messages.max(label, limits.url))
    .refine((value) => value === '' || /^https?:\/\//i.test(value), messages.urlScheme)
    .refine((value) => value === '' || !/^https?:\/\//i.test(value) || isParsableUrl(value), messages.url)
    .optional()
    .transform((value) => value ?? '');
}

/** Password rules of part 1 section 5, each with its own message, in the order a user fixes them. */
export const newPasswordField = z
  .string({ error: messages.required('Password') })
  .min(1, messages.required('Password'))
  .min(limits.passwordMin, messages.passwordMin)
  .max(limits.passwordMax, messages.passwordMax)
  .regex(/[a-z]/, messages.passwordLowercase)
  .regex(/[A-Z]/, messages.passwordUppercase)
  .regex(/[0-9]/, messages.passwordNumber)
  .regex(/[^A-Za-z0-9]/, messages.passwordSymbol);

/** Far past any real list; keeps OFFSET a small integer whatever is typed into the URL. */
export const MAX_PAGE = 100_000;

/** Page numbers: zero-based; anything non-numeric or negative reads as 0 (spec part 1 section 2). */
export const pageParam = z
  .unknown()
  .optional()
  .transform((value) => {
    const page = Number(value);
    return Number.isSafeInteger(page) && page >= 0 ? Math.min(page, MAX_PAGE) : 0;
  });

/** Page size: a whole number of 0 or more (spec), 20 when missing, at most 100 per request. */
export const pageSizeParam = z
  .string()
  .regex(/^\d{1,6}$/, 'Page size must be a whole number of 0 or more.')
  .optional()
  .transform((value) => (value === undefined ? 20 : Math.min(Number(value), 100)));

export const searchTermParam = z
  .string()
  .trim()
  .max(limits.searchTerm, messages.max('Search term', limits.searchTerm))
  .optional()
  .transform((value) => value ?? '');
