import { and, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsDailyCounts, fundraiserDailyCounts } from '../../db/schema';

// The counts kept per day: a fundraiser's (fundraiser_daily_counts: its embed, shares, page views,
// plays, downloads) and the site's (analytics_daily_counts: page views by page shape, events,
// where visits came from). Counts only, never who. A row's day is "2026-11-29", or "2026-11" once
// its month was folded into one row (foldDaysBefore): as text, a month sorts before its days.

const f = fundraiserDailyCounts;
const a = analyticsDailyCounts;

export type DailyCountKind = (typeof f.$inferSelect)['kind'];
export type SiteCountKind = (typeof a.$inferSelect)['kind'];

/** One more of `kind` (and `detail`) on `day` (the site's calendar date). */
export function addToDailyCount(db: Db, fundraiserId: number, day: string, kind: DailyCountKind, detail = ''): void {
  db.insert(f)
    .values({ fundraiserId, day, kind, detail, count: 1 })
    .onConflictDoUpdate({
      target: [f.fundraiserId, f.day, f.kind, f.detail],
      set: { count: sql`${f.count} + 1` },
    })
    .run();
}

/** One more site-wide page view (by page shape), event or visit from somewhere on `day`. */
export function addToSiteCount(db: Db, day: string, kind: SiteCountKind, name: string): void {
  db.insert(a)
    .values({ day, kind, name, count: 1 })
    .onConflictDoUpdate({ target: [a.day, a.kind, a.name], set: { count: sql`${a.count} + 1` } })
    .run();
}

/** Every count of a fundraiser, all time, by kind. */
export function totalCounts(db: Db, fundraiserId: number): Map<DailyCountKind, number> {
  const rows = db
    .select({ kind: f.kind, count: sql<number>`sum(${f.count})` })
    .from(f)
    .where(eq(f.fundraiserId, fundraiserId))
    .groupBy(f.kind)
    .all();
  return new Map(rows.map((row) => [row.kind, row.count]));
}

/**
 * A fundraiser's counts (every fundraiser's summed, `fundraiserId` null) per day and kind from the
 * month of `fromDay` on: the month's folded row is in, its days before `fromDay` too (the caller
 * places each row). In key order: a year is a few thousand rows read where they lie.
 */
export function fundraiserCountsByDay(db: Db, fundraiserId: number | null, fromDay: string) {
  return db
    .select({ day: f.day, kind: f.kind, count: sql<number>`sum(${f.count})` })
    .from(f)
    .where(and(fundraiserId === null ? undefined : eq(f.fundraiserId, fundraiserId), gte(f.day, fromDay.slice(0, 7))))
    .groupBy(f.day, f.kind)
    .all();
}

/**
 * The same period's counts of the kinds that say more (page views by source, downloads by
 * format), summed by what they say: `fromDay` and after, and the months folded from then on.
 */
export function fundraiserCountsByDetail(db: Db, fundraiserId: number | null, fromDay: string) {
  return db
    .select({ kind: f.kind, detail: f.detail, count: sql<number>`sum(${f.count})` })
    .from(f)
    .where(
      and(
        fundraiserId === null ? undefined : eq(f.fundraiserId, fundraiserId),
        or(gte(f.day, fromDay), and(gte(f.day, fromDay.slice(0, 7)), sql`length(${f.day}) = 7`)),
        inArray(f.kind, ['page_view', 'download']),
      ),
    )
    .groupBy(f.kind, f.detail)
    .all();
}

/** The site's counts per day, kind and name from the month of `fromDay` on (as above). */
export function siteCountsSince(db: Db, fromDay: string) {
  return db
    .select({ day: a.day, kind: a.kind, name: a.name, count: a.count })
    .from(a)
    .where(gte(a.day, fromDay.slice(0, 7)))
    .all();
}

/**
 * The oldest day anything was counted on, for a fundraiser or (null) the site, if anything was:
 * where "all time" may start. A month's folded row stands for its first day.
 */
export function firstCountedDay(db: Db, fundraiserId: number | null): string | undefined {
  const row =
    fundraiserId === null
      ? db
          .select({ day: sql<string | null>`min(${a.day})` })
          .from(a)
          .get()
      : db
          .select({ day: sql<string | null>`min(${f.day})` })
          .from(f)
          .where(eq(f.fundraiserId, fundraiserId))
          .get();
  const day = row?.day ?? undefined;
  return day?.length === 7 ? `${day}-01` : day;
}

/**
 * Folds every per-day row older than `beforeDay` into one row per month (`npm run cli --
 * prune-insight`): the sums stay, a year of rows becomes twelve. Returns how many day rows went.
 */
export function foldDaysBefore(db: Db, beforeDay: string): { fundraiserRows: number; siteRows: number } {
  return db.transaction((tx) => {
    // Day rows only ("YYYY-MM-DD" is 10 characters; a month's row is 7).
    const oldDays = (day: typeof f.day | typeof a.day) => and(lt(day, beforeDay), sql`length(${day}) = 10`);
    tx.run(sql`
      insert into ${f} (fundraiser_id, day, kind, detail, count)
      select fundraiser_id, substr(day, 1, 7), kind, detail, sum(count) from ${f}
      where ${oldDays(f.day)} group by fundraiser_id, substr(day, 1, 7), kind, detail
      on conflict (fundraiser_id, day, kind, detail) do update set count = count + excluded.count`);
    const fundraiserRows = tx.delete(f).where(oldDays(f.day)).run().changes;
    tx.run(sql`
      insert into ${a} (day, kind, name, count)
      select substr(day, 1, 7), kind, name, sum(count) from ${a}
      where ${oldDays(a.day)} group by substr(day, 1, 7), kind, name
      on conflict (day, kind, name) do update set count = count + excluded.count`);
    const siteRows = tx.delete(a).where(oldDays(a.day)).run().changes;
    return { fundraiserRows, siteRows };
  });
}
