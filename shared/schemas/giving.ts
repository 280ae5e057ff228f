import { z } from 'zod';

// The giving history and the year-end statement (issue 26; DESIGN.md "Contract details for wave
// 3", giving history): which year is asked for. What the server answers is in answers/giving.ts.

/** The first year a statement can be asked for; the last is next year (a donation dated ahead by a time zone). */
export const FIRST_GIVING_YEAR = 2000;

/** The latest year that can be asked for: next year, so a zone ahead of UTC on New Year's Eve is never refused. */
export function lastGivingYear(now = new Date()): number {
  return now.getUTCFullYear() + 1;
}

export const givingMessages = {
  year: (last = lastGivingYear()) => `Year must be a four-digit year from ${FIRST_GIVING_YEAR} to ${last}, like 2025.`,
  statementNotFound: 'Statement not found. Its address is /api/giving/statement/YYYY.pdf, like 2025.pdf.',
  donationNotFound: 'Donation not found.',
  statementLinkInvalid:
    'This statement link is not valid. Check that it is the whole link from the email, or log in to download your statement.',
  statementLinkExpired: 'This statement link has expired. Log in to download your statement from your giving history.',
  receiptCopyTooSoon: (retryAfterMs: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    return `A copy of this receipt was sent a few minutes ago: please look in your inbox and spam folder. You can ask for another in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  },
} as const;

/** A year as typed in an address: four digits, from 2000 to next year. */
export const givingYearField = z
  .string({ error: givingMessages.year() })
  .trim()
  .transform((value, ctx) => {
    const year = /^\d{4}$/.test(value) ? Number(value) : NaN;
    const last = lastGivingYear();
    if (!(year >= FIRST_GIVING_YEAR && year <= last)) {
      ctx.addIssue({ code: 'custom', message: givingMessages.year(last) });
      return z.NEVER;
    }
    return year;
  });

/** GET /api/giving?year=YYYY: no year is the newest year with donations (or this year). */
export const givingQuerySchema = z.object({ year: givingYearField.optional() });
export type GivingQuery = z.infer<typeof givingQuerySchema>;

/** GET /api/giving/statement/{year}.pdf: the year in the file's name. */
export const statementYearSchema = z.object({ year: givingYearField });

/** GET /api/giving/statement/{year}.pdf?token=…: a signed link from the statement email opens it without a session. */
export const statementQuerySchema = z.object({
  // An empty `token=` is no token: a signed-in donor's own statement, not an invalid link.
  token: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((token) => token || undefined),
});
