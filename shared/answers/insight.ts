import * as z from 'zod/mini';

// GET /api/fundraisers/{id}/insight (issue 29; DESIGN.md wave 3, "insight"): a fundraiser's days,
// counts only, no donor.

export const insightDaySchema = z.object({
  /** A calendar day in the site's time zone: "2026-11-29". */
  date: z.string(),
  raisedCents: z.int(),
  donations: z.int(),
  previewPlays: z.int(),
  streams: z.int(),
  downloads: z.int(),
  pageViews: z.int(),
  embedViews: z.int(),
});

export const fundraiserInsightSchema = z.object({
  days: z.array(insightDaySchema),
  sources: z.array(z.object({ referrer: z.string(), visits: z.int() })),
  formats: z.array(z.object({ id: z.string(), downloads: z.int() })),
});
export type FundraiserInsight = z.infer<typeof fundraiserInsightSchema>;
