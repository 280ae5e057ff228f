import { and, eq, gte, inArray, lt, or, type Placeholder, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
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
  addOneToDailyCount(db).run({ fundraiserId, day, kind, detail });
}

// Every play, download and page view writes one of these: prepared once (building the statement
// anew cost more than running it).
const addOneToDailyCount = preparedQuery((db) =>
  db
    .insert(f)
    .values({
      fundraiserId: sql.placeholder('fundraiserId'),
      day: sql.placeholder('day'),
      kind: sql.placeholder('kind'),
      detail: sql.placeholder('detail'),
      count: 1,
    })
    .onConflictDoUpdate({ target: [f.fundraiserId, f.day, f.kind, f.detail], set: { count: sql`${f.count} + 1` } })
    .prepare(),
);

/** One more site-wide page view (by page shape), event or visit from somewhere on `day`. */
export function addToSiteCount(db: Db, day: string, kind: SiteCountKind, name: string): void {
  addOneToSiteCount(db).run({ day, kind, name });
}

const addOneToSiteCount = preparedQuery((db) =>
  db
    .insert(a)
    .values({ day: sql.placeholder('day'), kind: sql.placeholder('kind'), name: sql.placeholder('name'), count: 1 })
    .onConflictDoUpdate({ target: [a.day, a.kind, a.name], set: { count: sql`${a.count} + 1` } })
    .prepare(),
);

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

/** A period's day as read: [day or folded month, page views, previews, streams, downloads, embed views]. */
export type DayCounts = [
  day: string,
  pageViews: number,
  previewPlays: number,
  streams: number,
  downloads: number,
  embedViews: number,
];

const sumOf = (kind: DailyCountKind) => sql<number>`coalesce(sum(${f.count}) filter (where ${f.kind} = ${kind}), 0)`;
const perDay = {
  day: f.day,
  pageViews: sumOf('page_view'),
  previewPlays: sumOf('preview_play'),
  streams: sumOf('stream'),
  downloads: sumOf('download'),
  embedViews: sumOf('embed_view'),
};

/**
 * A fundraiser's counts (every fundraiser's summed, `fundraiserId` null) per day from the month of
 * `fromDay` on: the month's folded row is in, its days before `fromDay` too (the caller places
 * each row). As arrays, one per day: a year of rows made into objects cost more than reading them
 * (`npm run bench`, insight).
 */
export function countsByDay(db: Db, fundraiserId: number | null, fromDay: string): DayCounts[] {
  const fromMonth = fromDay.slice(0, 7);
  if (fundraiserId !== null) return fundraiserCountsByDay(db).values({ fundraiserId, fromMonth }) as DayCounts[];
  return db.select(perDay).from(f).where(gte(f.day, fromMonth)).groupBy(f.day).prepare().values() as DayCounts[];
}

// A fundraiser's dashboard reads a year of its rows on every look, in key order (one day's rows
// after another's, so nothing is sorted): prepared once, as building it cost as much as running it.
const fundraiserCountsByDay = preparedQuery((db) =>
  db
    .select(perDay)
    .from(f)
    .where(and(eq(f.fundraiserId, sql.placeholder('fundraiserId')), gte(f.day, sql.placeholder('fromMonth'))))
    .groupBy(f.day)
    .prepare(),
);

/** The counts that say more (page views by source, downloads by format) as [kind, detail, count]. */
export type DetailCount = [kind: DailyCountKind, detail: string, count: number];

/** The same period's page views and downloads summed by what they say: `fromDay` and after. */
export function countsByDetail(db: Db, fundraiserId: number | null, fromDay: string): DetailCount[] {
  if (fundraiserId !== null) return fundraiserCountsByDetail(db).values({ fundraiserId, fromDay }) as DetailCount[];
  return db
    .select({ kind: f.kind, detail: f.detail, count: sql<number>`sum(${f.count})` })
    .from(f)
    .where(and(inPeriod(fromDay), eq(f.kind, 'download')))
    .groupBy(f.kind, f.detail)
    .prepare()
    .values() as DetailCount[];
}

/** Its days, and the folded months that begin in it (one that began before is left out). */
const inPeriod = (fromDay: string | Placeholder) =>
  or(gte(f.day, fromDay), and(sql`length(${f.day}) = 7`, sql`${f.day} || '-01' >= ${fromDay}`));

const fundraiserCountsByDetail = preparedQuery((db) =>
  db
    .select({ kind: f.kind, detail: f.detail, count: sql<number>`sum(${f.count})` })
    .from(f)
    .where(
      and(
        eq(f.fundraiserId, sql.placeholder('fundraiserId')),
        inPeriod(sql.placeholder('fromDay')),
        inArray(f.kind, ['page_view', 'download']),
      ),
    )
    .groupBy(f.kind, f.detail)
    .prepare(),
);

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
 * Folds the per-day rows of one month (a month before the oldest day kept) into one row per
 * fundraiser, kind and detail, and one per site kind and name (`npm run cli -- prune-insight`): the
 * sums stay, a month of rows becomes one. One transaction per month, so the site's own counts wait
 * at most one month's fold. Returns how many day rows went.
 */
export function foldMonth(db: Db, month: string): { fundraiserRows: number; siteRows: number } {
  const ofMonth = (day: typeof f.day | typeof a.day) => and(gte(day, `${month}-01`), lt(day, `${month}-32`));
  return db.transaction((tx) => {
    tx.run(sql`
      insert into ${f} (fundraiser_id, day, kind, detail, count)
      select fundraiser_id, ${month}, kind, detail, sum(count) from ${f}
      where ${ofMonth(f.day)} group by fundraiser_id, kind, detail
      on conflict (fundraiser_id, day, kind, detail) do update set count = count + excluded.count`);
    const fundraiserRows = tx.delete(f).where(ofMonth(f.day)).run().changes;
    tx.run(sql`
      insert into ${a} (day, kind, name, count)
      select ${month}, kind, name, sum(count) from ${a}
      where ${ofMonth(a.day)} group by kind, name
      on conflict (day, kind, name) do update set count = count + excluded.count`);
    const siteRows = tx.delete(a).where(ofMonth(a.day)).run().changes;
    return { fundraiserRows, siteRows };
  });
}

/** The months ("2026-01") before `beforeDay` that still have rows by day, oldest first. */
export function monthsWithDaysBefore(db: Db, beforeDay: string): string[] {
  const months = new Set<string>();
  for (const table of [f, a] as const) {
    const rows = db
      .selectDistinct({ month: sql<string>`substr(${table.day}, 1, 7)` })
      .from(table)
      .where(and(lt(table.day, beforeDay), sql`length(${table.day}) = 10`))
      .all();
    for (const row of rows) months.add(row.month);
  }
  return [...months].sort();
}
