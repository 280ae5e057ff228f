import * as z from 'zod/mini';

/** Public facts about this installation that the client shows (GET /api/site). */
export const siteSchema = z.object({
  siteName: z.string(),
  contactEmail: z.string(),
  postalAddress: z.string(),
  socialLinks: z.array(z.object({ label: z.string(), url: z.string() })),
  /** The 'Greatest Hits' promo (PROMO_PROJECT_ID), or null while it is not a public fundraiser. */
  promoProjectId: z.nullable(z.int()),
  /** SITE_TIME_ZONE: money pages show calendar dates of this zone (shared/site-dates.ts). */
  timeZone: z.string(),
});
export type Site = z.infer<typeof siteSchema>;
