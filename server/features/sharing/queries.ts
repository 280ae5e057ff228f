import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fundraiserDailyCounts } from '../../db/schema';

// A fundraiser's counts by day (fundraiser_daily_counts): views of and preview plays in its
// embedded player, and its completed shares. Counts only, never who.

export type DailyCountKind = (typeof fundraiserDailyCounts.$inferSelect)['kind'];

/** One more of `kind` on `day` (the site's calendar date). */
export function addToDailyCount(db: Db, fundraiserId: number, day: string, kind: DailyCountKind): void {
  db.insert(fundraiserDailyCounts)
    .values({ fundraiserId, day, kind, count: 1 })
    .onConflictDoUpdate({
      target: [fundraiserDailyCounts.fundraiserId, fundraiserDailyCounts.day, fundraiserDailyCounts.kind],
      set: { count: sql`${fundraiserDailyCounts.count} + 1` },
    })
    .run();
}

/** Every count of a fundraiser, all time, by kind. */
export function totalCounts(db: Db, fundraiserId: number): Map<DailyCountKind, number> {
  const rows = db
    .select({ kind: fundraiserDailyCounts.kind, count: sql<number>`sum(${fundraiserDailyCounts.count})` })
    .from(fundraiserDailyCounts)
    .where(eq(fundraiserDailyCounts.fundraiserId, fundraiserId))
    .groupBy(fundraiserDailyCounts.kind)
    .all();
  return new Map(rows.map((row) => [row.kind, row.count]));
}

/** A fundraiser's counts (or every fundraiser's) per day and kind from `fromDay` on ("2026-11-01"). */
export function dailyCountsSince(db: Db, fundraiserId: number | null, fromDay: string) {
  return db
    .select({
      day: fundraiserDailyCounts.day,
      kind: fundraiserDailyCounts.kind,
      count: sql<number>`sum(${fundraiserDailyCounts.count})`,
    })
    .from(fundraiserDailyCounts)
    .where(
      and(
        fundraiserId === null ? undefined : eq(fundraiserDailyCounts.fundraiserId, fundraiserId),
        gte(fundraiserDailyCounts.day, fromDay),
      ),
    )
    .groupBy(fundraiserDailyCounts.day, fundraiserDailyCounts.kind)
    .all();
}
