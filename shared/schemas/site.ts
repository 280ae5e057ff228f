import { z } from 'zod';

/** Route paths are at most this long in analytics; longer ones are cut. */
export const ANALYTICS_PATH_MAX = 300;

export const pageViewSchema = z.object({
  path: z
    .string()
    .trim()
    .min(1)
    .transform((path) => path.slice(0, ANALYTICS_PATH_MAX)),
  /**
   * Only on the first page a visit opens (issue 29): the host of the page that led there (never
   * its address), or '' when none did. Absent on the pages a visit goes on to.
   */
  referrer: z.optional(z.string().trim().toLowerCase().max(260, { error: 'Referrer cannot exceed 260 characters.' })),
});

/** The events the client reports (spec: account creation, artist 'Submit', publish, new fundraiser). */
export const ANALYTICS_EVENTS = ['Sign up', 'Submit', 'Publish', 'New fundraiser'] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

export const analyticsEventSchema = z.object({ name: z.enum(ANALYTICS_EVENTS) });
