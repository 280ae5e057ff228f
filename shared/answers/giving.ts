import * as z from 'zod/mini';

// What the giving history answers (issue 26; DESIGN.md "Contract details for wave 3", giving
// history): a signed-in donor's donations of one year in the site's time zone, their money as the
// money journal sums it, and what of it is tax-deductible. All money is integer cents.

/** One payment the donor made: to a fundraiser (a charity's), or a gift to the platform (no charity). */
export const givingDonationSchema = z.object({
  paymentIntentId: z.string(),
  /** ISO moment the payment succeeded; its year in the site's time zone is the year it counts in. */
  date: z.string(),
  /** Null for a gift to the platform (the support page). */
  fundraiserName: z.nullable(z.string()),
  charityName: z.nullable(z.string()),
  /** The charity's EIN, nine digits; null for a gift to the platform. */
  ein: z.nullable(z.string()),
  /** The donation itself, without the fee cover. */
  donationCents: z.int(),
  tipCents: z.int(),
  /** What the donor added to cover the card fee: the charity's money, deductible like the donation. */
  feeCoverCents: z.int(),
  /** What went back to the donor: refunds (not reversed) and disputes lost. */
  refundedCents: z.int(),
  /** What the charity kept above the fundraiser's minimum (the album's value); 0 for the platform. */
  taxDeductibleCents: z.int(),
  /** A gift: the album went to someone else (the receipt and the deduction are the giver's). */
  gift: z.nullable(z.object({ recipientName: z.string(), recipientEmail: z.string() })),
});
export type GivingDonation = z.infer<typeof givingDonationSchema>;

export const givingCharitySchema = z.object({
  ein: z.string(),
  charityName: z.string(),
  taxDeductibleCents: z.int(),
});
export type GivingCharity = z.infer<typeof givingCharitySchema>;

/** GET /api/giving?year=YYYY. */
export const givingSchema = z.object({
  year: z.int(),
  /** Every year with a donation, newest first, and this year even without one. */
  years: z.array(z.int()),
  /** Newest first. */
  donations: z.array(givingDonationSchema),
  byCharity: z.array(givingCharitySchema),
  taxDeductibleCents: z.int(),
});
export type Giving = z.infer<typeof givingSchema>;

/** POST /api/giving/receipts/{paymentIntentId}: the copy is on its way to this address. */
export const receiptCopySchema = z.object({ sentTo: z.string() });
export type ReceiptCopy = z.infer<typeof receiptCopySchema>;
