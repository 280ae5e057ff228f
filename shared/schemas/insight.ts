import { z } from 'zod';

const DAYS_MESSAGE = 'Days must be a whole number from 1 to 3650, or all.';

/** How far back the insight looks: 7, 30 or 90 days (or any number up to ten years), or all time. */
export const insightQuerySchema = z.object({
  days: z
    .union(
      [
        z.literal('all'),
        z.coerce
          .number({ error: DAYS_MESSAGE })
          .int({ error: DAYS_MESSAGE })
          .min(1, { error: DAYS_MESSAGE })
          .max(3650, { error: DAYS_MESSAGE }),
      ],
      { error: DAYS_MESSAGE },
    )
    .default(30),
});
export type InsightQuery = z.infer<typeof insightQuerySchema>;
