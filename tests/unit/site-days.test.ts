import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { siteCalendarDate } from '../../shared/site-dates';
import { addDays, siteDayIndex, siteDays } from '../../server/db/site-days';

// Issue 29: SQL sorts money rows into the site's calendar days with one CASE (server/db/site-days.ts).
// Whatever the zone and its clock changes, SQL's day must be the one siteCalendarDate names.

const ZONES = [
  'America/Los_Angeles',
  'Europe/London',
  // Half-hour clock changes; clocks that change at midnight (the day begins at 01:00); +13:45.
  'Australia/Lord_Howe',
  'America/Santiago',
  'America/Havana',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'UTC',
];

describe('siteDayIndex', () => {
  it("puts every moment on the site's calendar day, across clock changes", () => {
    const sqlite = new Database(':memory:');
    const db = drizzle(sqlite);
    // An integer column, as occurred_at is: SQLite's integer division gives the day number.
    sqlite.exec('create table moments (at integer not null)');
    const insert = sqlite.prepare('insert into moments (at) values (?)');
    const first = '2025-01-01';
    const last = '2026-12-31';
    const check = (zone: string, moments: number[]) => {
      const days = siteDays(first, last, zone);
      sqlite.exec('delete from moments');
      for (const at of moments) insert.run(BigInt(at));
      const index = siteDayIndex(sql.raw('at'), days);
      const rows = db.all<{ at: number; day: number }>(sql`select at, ${index} as day from moments`);
      expect(rows).toHaveLength(moments.length);
      for (const row of rows) {
        const date = siteCalendarDate(row.at, zone);
        const expected = date < first ? -1 : date > last ? days.dates.length : days.dates.indexOf(date);
        expect([zone, new Date(row.at).toISOString(), row.day]).toEqual([
          zone,
          new Date(row.at).toISOString(),
          expected,
        ]);
      }
    };
    // Each day's first moment and the one before it, and every quarter hour of a day that is not
    // 24 hours long (where the clocks change).
    for (const zone of ZONES) {
      const { starts } = siteDays(first, last, zone);
      const edges = starts.flatMap((start) => [start - 1, start]);
      for (const [i, start] of starts.slice(0, -1).entries()) {
        if (starts[i + 1]! - start === 86_400_000) continue;
        for (let at = start; at < starts[i + 1]!; at += 15 * 60_000) edges.push(at, at + 14 * 60_000);
      }
      check(zone, edges);
    }
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(fc.integer({ min: Date.parse('2024-12-30'), max: Date.parse('2027-01-02') }), { minLength: 1 }),
        (zone, moments) => {
          const days = siteDays(first, last, zone);
          expect(days.dates).toHaveLength(730);
          expect(days.starts).toHaveLength(731);
          check(zone, moments);
        },
      ),
      { numRuns: 200 },
    );
    sqlite.close();
  });

  it('knows the first moment of each day, clock changes and all', () => {
    for (const zone of ZONES) {
      const { dates, starts } = siteDays('2026-01-01', '2026-12-31', zone);
      for (const [i, date] of dates.entries()) {
        expect(siteCalendarDate(starts[i]!, zone)).toBe(date);
        expect(siteCalendarDate(starts[i]! - 1, zone)).toBe(addDays(date, -1));
      }
    }
  });
});
