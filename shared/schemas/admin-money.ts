import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { formatDollars, parseDollarsToCents } from '../money';
import { normaliseEin } from '../ein';

// Admin money and the public ledger (issue 11; spec part 2 sections 3-5, 7 and 8; DESIGN.md
// "Contract details for money, admin and offline"). The client checks what it can as the admin
// types; the server decides, with the same messages.

export const disbursementLimits = {
  /** 1 cent to $100,000 (spec part 2 section 9). */
  minCents: 1,
  maxCents: 10_000_000,
  notesMax: 3000,
  charityNameMax: 1000,
  callbackSecretMax: 1000,
} as const;

export const adminMoneyMessages = {
  amountMin: messages.moneyMin('Amount', formatDollars(disbursementLimits.minCents)),
  amountMax: messages.moneyMax('Amount', formatDollars(disbursementLimits.maxCents)),
  amountRequired: messages.required('Amount'),
  ein: 'Please enter a valid EIN (9 digits, like 12-3456789).',
  finalizedAt: 'Please enter a valid date.',
  finalizedAtFuture: 'The date paid cannot be in the future.',
  amountNotDollars: 'Amount must be an amount in dollars, like 250 or 250.00',
  pendingDisbursement:
    'This charity already has a pending disbursement. Please complete or cancel it in the disbursement history first.',
  manualOverOutstanding: (outstandingCents: number) =>
    `This is more than the $${formatDollars(outstandingCents)} outstanding for this charity. Confirm to record it anyway.`,
  incorrectAmount: (outstandingCents: number) =>
    `The outstanding amount ($${formatDollars(outstandingCents)}) is less than the amount being disbursed. Please refresh the page and try again.`,
  updateFailed: 'something went wrong. Unable to update disbursement.',
  transactionsFailed: 'Something went wrong! Unable to load transactions',
  generic: 'something went wrong',
  notPending: 'This disbursement is no longer pending: it was already completed or canceled.',
  wrongSecret: 'This link does not belong to this disbursement. Please start the disbursement again.',
  callbackMissing: 'This page needs the action, callbackSecret and disbursementId from the giving site’s link.',
  reconciliationDate: 'Please enter a valid date (YYYY-MM-DD).',
  reconciliationOrder: 'The end date cannot be before the start date.',
  reconciliationSpan: 'Please choose a period of at most 366 days.',
  reconciliationFailed: 'Something went wrong! Unable to compare the payments with the payment processor.',
  feeChecksFailed: 'Something went wrong! Unable to ask for the fees again.',
  featuredAtLeastOne: 'Must include at least one featured project',
  featuredDuplicate: 'This fundraiser is already in the list. Please delete it or choose a different fundraiser',
  featuredEmptyRow: 'Please add a fundraiser or delete this row.',
  featuredUpdateFailed: 'Unable to update featured fundraisers...',
  featuredUpdated: 'Featured fundraisers updated successfully.',
  featuredNotPublished: (id: number) => `Fundraiser ${id} is not published, so it cannot be featured.`,
} as const;

const einField = z
  .string({ error: adminMoneyMessages.ein })
  .max(limits.charityEin, messages.max('EIN', limits.charityEin))
  .transform((value, ctx) => {
    const ein = normaliseEin(value);
    if (ein === null) {
      ctx.addIssue({ code: 'custom', message: adminMoneyMessages.ein });
      return z.NEVER;
    }
    return ein;
  });

/** At least a cent; the giving site's disbursements have no other limit than what is outstanding. */
const positiveCentsField = z
  .number({ error: adminMoneyMessages.amountRequired })
  .int(adminMoneyMessages.amountRequired)
  .min(disbursementLimits.minCents, adminMoneyMessages.amountMin);

/** A manual disbursement's amount: 1 cent to $100,000 (spec part 2 section 9). */
const amountCentsField = positiveCentsField.max(disbursementLimits.maxCents, adminMoneyMessages.amountMax);

/**
 * POST /api/admin/disbursement/initialize. No $100,000 cap: the spec gives it for manual
 * disbursements, and the Disburse button pays the whole outstanding amount, so a cap would leave
 * a charity owed more than that with no way to be paid. The server checks it is at most what is
 * outstanding.
 */
export const initializeDisbursementSchema = z.object({ amountCents: positiveCentsField, ein: einField });

/** PATCH /api/admin/disbursement/{id}: Complete, Cancel, or Mark failed (the money never arrived). */
export const disbursementStatusUpdateSchema = z.object({
  status: z.enum(['COMPLETE', 'CANCELED', 'FAILED'], { error: 'Status must be COMPLETE, CANCELED or FAILED.' }),
});

/** The giving site's returns: finished, left, or failed (the spec's FAILED). */
export const CALLBACK_ACTIONS = ['markComplete', 'markCanceled', 'markFailed'] as const;
export type CallbackAction = (typeof CALLBACK_ACTIONS)[number];

/** PATCH /api/admin/disbursement/{id}/callback (spec part 2 section 5, Disbursement callback). */
export const disbursementCallbackSchema = z.object({
  action: z.enum(CALLBACK_ACTIONS, { error: 'Action must be markComplete, markCanceled or markFailed.' }),
  callbackSecret: z
    .string({ error: messages.required('Callback secret') })
    .min(1, messages.required('Callback secret'))
    .max(disbursementLimits.callbackSecretMax, messages.max('Callback secret', disbursementLimits.callbackSecretMax)),
});

const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A date that exists on the calendar: Date.parse rolls 2026-02-30 over to March 2nd, which would
 * record (and show on the public ledger) a day nobody entered.
 */
function isCalendarDate(value: string) {
  const match = isoDateTime.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    !Number.isNaN(Date.parse(value))
  );
}

/**
 * Not in the future. A date alone may be today wherever the admin is: the earliest time zone
 * (UTC+14) is 14 hours ahead, so its today, read as midnight UTC, is at most now + 14 hours. A
 * date and time is a moment: a few minutes of clock difference at most.
 */
function isNotFuture(value: string) {
  const aheadMs = value.includes('T') ? 5 * 60 * 1000 : 14 * 60 * 60 * 1000;
  return Date.parse(value) <= Date.now() + aheadMs;
}

/** POST /api/admin/disbursements: money already paid, recorded COMPLETE with source MANUAL. */
export const manualDisbursementSchema = z.object({
  ein: einField,
  amountCents: amountCentsField,
  notes: z.string().max(disbursementLimits.notesMax, messages.max('Notes', disbursementLimits.notesMax)).default(''),
  charityName: z
    .string({ error: messages.required('Charity name') })
    .trim()
    .min(1, messages.required('Charity name'))
    .max(disbursementLimits.charityNameMax, messages.max('Charity name', disbursementLimits.charityNameMax)),
  /** An ISO date (2026-11-01), or a date and time with its offset: a real one, not in the future. */
  finalizedAt: z
    .string({ error: adminMoneyMessages.finalizedAt })
    .refine(isCalendarDate, { message: adminMoneyMessages.finalizedAt, abort: true })
    .refine(isNotFuture, adminMoneyMessages.finalizedAtFuture),
  /**
   * The admin confirmed an amount over what is outstanding (money paid ahead, or the figures are
   * behind): without it the server refuses such an amount with INCORRECT_DISBURSEMENT_AMOUNT.
   */
  overrideOutstanding: z.boolean({ error: 'overrideOutstanding must be true or false.' }).default(false),
});
export type ManualDisbursementInput = z.input<typeof manualDisbursementSchema>;

/**
 * The manual disbursement form (/admin/disbursements/new): the same fields and messages, the
 * amount typed in dollars ("250", "250.00"; empty is $0, below the minimum) and turned into the
 * payload's cents. Its output is what POST /api/admin/disbursements takes.
 */
export const manualDisbursementFormSchema = manualDisbursementSchema.extend({
  amountCents: z
    .string()
    .transform((text, ctx) => {
      const cents = parseDollarsToCents(text);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: adminMoneyMessages.amountNotDollars });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(amountCentsField),
});

/** PUT /api/admin/projects/featured: a bare array of fundraiser ids, in the home page's order. */
export const featuredFundraiserIdsSchema = z
  .array(z.number().int().positive(), { error: 'Send a list of fundraiser ids.' })
  .min(1, adminMoneyMessages.featuredAtLeastOne)
  .max(100, 'At most 100 fundraisers can be featured.')
  .refine((ids) => new Set(ids).size === ids.length, adminMoneyMessages.featuredDuplicate);

const calendarDay = z
  .string({ error: adminMoneyMessages.reconciliationDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, adminMoneyMessages.reconciliationDate)
  .refine(isCalendarDate, adminMoneyMessages.reconciliationDate);

/** The longest period one reconciliation compares: a year, leap day and all. */
export const RECONCILIATION_MAX_DAYS = 366;

/**
 * GET /api/admin/reconciliation and its CSV: a period of the site's calendar days, both included
 * (`from` … `to`).
 */
export const reconciliationParamsSchema = z
  .object({ from: calendarDay, to: calendarDay })
  .refine((period) => period.from <= period.to, { message: adminMoneyMessages.reconciliationOrder, path: ['to'] })
  .refine((period) => (Date.parse(period.to) - Date.parse(period.from)) / 86_400_000 < RECONCILIATION_MAX_DAYS, {
    message: adminMoneyMessages.reconciliationSpan,
    path: ['to'],
  });
export type ReconciliationParams = z.infer<typeof reconciliationParamsSchema>;
