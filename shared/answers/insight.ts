import * as z from 'zod/mini';

// Insight (issue 29; DESIGN.md wave 3, "insight"): what happened day by day, counts and sums only.
// No answer here names a donor, a listener or a visitor.

export const insightDaySchema = z.object({
  /** A calendar day in the site's time zone: "2026-11-29". */
  date: z.string(),
  /** What the charity keeps, after refunds and disputes: the day's rows of the money journal. */
  raisedCents: z.int(),
  /** Payments made that day (a refund later does not take one away). */
  donations: z.int(),
  /** Previews the server began to send (a browser's cache answers replays itself). */
  previewPlays: z.int(),
  /** Full tracks the server began to stream to listeners who may hear them. */
  streams: z.int(),
  /** Albums and tracks downloaded, in every format. */
  downloads: z.int(),
  /** Views of the fundraiser's page (site-wide: of every page). */
  pageViews: z.int(),
  /** Views of the embedded player on other sites. */
  embedViews: z.int(),
});
export type InsightDay = z.infer<typeof insightDaySchema>;

/**
 * Where visits came from: another site's host ("news.example.com"), `embed` (the embedded player),
 * `site` (a page of this site led there) or `direct` (an address typed, a bookmark, an app, or a
 * site that sends no referrer). Most first.
 */
export const insightSourceSchema = z.object({ referrer: z.string(), visits: z.int() });
/** Downloads by format id (`original`, `mp3-320`, …; shared/download-formats), most first. */
export const insightFormatSchema = z.object({ id: z.string(), downloads: z.int() });

const period = {
  /** The site's time zone: every date is a calendar day there. */
  timeZone: z.string(),
  days: z.array(insightDaySchema),
  sources: z.array(insightSourceSchema),
  formats: z.array(insightFormatSchema),
  /**
   * Counts older than this day are kept by month (`npm run cli -- prune-insight`): each month's are
   * shown on its first day, and a month that began before the period is left out of it. Null when
   * every day of the period is whole. Money is never pruned.
   */
  monthlyBefore: z.nullable(z.string()),
  /** Raised before the period's first day: where its cumulative line starts. */
  raisedBeforeCents: z.int(),
};

/** GET /api/fundraisers/{id}/insight?days=N|all (owner, admin). */
export const fundraiserInsightSchema = z.object({
  ...period,
  fundraiser: z.object({
    id: z.int(),
    name: z.string(),
    slug: z.string(),
    /** Null when it has none. */
    goalCents: z.nullable(z.int()),
  }),
});
export type FundraiserInsight = z.infer<typeof fundraiserInsightSchema>;

/** GET /api/admin/insight?days=N|all (admins): the same site-wide, and what only an admin sees. */
export const adminInsightSchema = z.object({
  ...period,
  /** The period's most raised (after refunds), at most 10. */
  topFundraisers: z.array(
    z.object({
      id: z.int(),
      name: z.string(),
      /** Its page's slug; null when it has no public page (a draft, or deleted since). */
      slug: z.nullable(z.string()),
      artistName: z.string(),
      raisedCents: z.int(),
      donations: z.int(),
    }),
  ),
  /** Weeks from Monday (the site's zone) that overlap the period. */
  weeks: z.array(
    z.object({
      /** The Monday: "2026-11-23". */
      weekStart: z.string(),
      /** For charities, after refunds and disputes. */
      raisedCents: z.int(),
      /** Tips the platform kept, after refunds, disputes and their fees. */
      tipsCents: z.int(),
      /** Disbursed to charities. */
      paidOutCents: z.int(),
    }),
  ),
  /** The site's page views in the period by page shape ("/projects/:param"), most first. */
  pages: z.array(z.object({ path: z.string(), views: z.int() })),
  /** The events counted (spec part 1 section 2), most first. */
  events: z.array(z.object({ name: z.string(), count: z.int() })),
});
export type AdminInsight = z.infer<typeof adminInsightSchema>;
