import { z } from 'zod';

/** Public facts about this installation that the client shows (GET /api/site). */
export const siteSchema = z.object({
  siteName: z.string(),
  contactEmail: z.string(),
  postalAddress: z.string(),
  socialLinks: z.array(z.object({ label: z.string(), url: z.string() })),
  /** The 'Greatest Hits' promo (PROMO_PROJECT_ID), or null while it is not a public fundraiser. */
  promoProjectId: z.number().int().nullable(),
});
export type Site = z.infer<typeof siteSchema>;

/** Route paths are at most this long in analytics; longer ones are cut. */
export const ANALYTICS_PATH_MAX = 300;

export const pageViewSchema = z.object({
  path: z
    .string()
    .trim()
    .min(1)
    .transform((path) => path.slice(0, ANALYTICS_PATH_MAX)),
});

/** The events the client reports (spec: account creation, artist 'Submit', publish, new fundraiser). */
export const ANALYTICS_EVENTS = ['Sign up', 'Submit', 'Publish', 'New fundraiser'] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

export const analyticsEventSchema = z.object({ name: z.enum(ANALYTICS_EVENTS) });
