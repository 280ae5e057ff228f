import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsDailyCounts } from '../../db/schema';

/**
 * Counts a page view or event for today (UTC). Paths are reduced to their route shape first
 * (ids and tokens become placeholders) so no personal data is stored.
 */
export function countHit(db: Db, kind: 'pageview' | 'event', name: string, now = new Date()): void {
  const day = now.toISOString().slice(0, 10);
  db.insert(analyticsDailyCounts)
    .values({ day, kind, name, count: 1 })
    .onConflictDoUpdate({
      target: [analyticsDailyCounts.day, analyticsDailyCounts.kind, analyticsDailyCounts.name],
      set: { count: sql`${analyticsDailyCounts.count} + 1` },
    })
    .run();
}

export function routeShape(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  return pathname.replace(/^\/reset-password\/[^/]+/, '/reset-password/:token').replace(/\/\d+(?=\/|$)/g, '/:id');
}
