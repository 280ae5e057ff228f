import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { siteCalendarDate } from '../../shared/site-dates';
import { openDatabase } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { moneyDays } from '../../server/features/insight/money-days';
import { raisedByFundraisers } from '../../server/features/journal/service';
import { JOURNAL_KINDS } from '../../server/db/schema';

// Issue 29: the insight keeps each fundraiser's (and the site's) money per day between requests
// and adds the journal rows that came since. Whatever arrives, in whatever order of days, what it
// keeps must equal the journal summed afresh, to the cent.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'money-days-'));
const { sqlite, db } = openDatabase(path.join(dir, 'test.db'));
// Thousands of rows, one transaction each: a test's file need not survive a power cut.
sqlite.pragma('synchronous = OFF');
afterAll(() => {
  sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ZONE = 'America/Los_Angeles';
const NOW = Date.parse('2026-11-29T12:00:00Z');
const DAY = 86_400_000;
let next = 0;

const insert = sqlite.prepare(
  `insert into money_journal (provider_id, kind, fundraiser_id, charity_ein, charity_cents, platform_cents, processor_cents, occurred_at)
   values (?, ?, ?, '530196605', ?, ?, ?, ?)`,
);

type Row = { kind: string; fundraiserId: number | null; charityCents: number; platformCents: number; at: number };

function append(row: Row) {
  insert.run(`row_${next++}`, row.kind, row.fundraiserId, row.charityCents, row.platformCents, 0, row.at);
}

/** The same sums made from nothing: another handle on the same file keeps nothing yet. */
const fresh = (scope: number | null) => moneyDays(drizzle(sqlite, { schema }), scope, ZONE, NOW);

const row: fc.Arbitrary<Row> = fc.record({
  // Every kind the journal has (charges twice: the most common).
  kind: fc.constantFrom('charge', ...JOURNAL_KINDS),
  fundraiserId: fc.constantFrom(1, 2),
  charityCents: fc.integer({ min: -50_000, max: 50_000 }),
  platformCents: fc.integer({ min: -500, max: 500 }),
  // Any day of the last two years, and now and then one a little ahead of the clock.
  at: fc.integer({ min: NOW - 730 * DAY, max: NOW + 2 * DAY }),
});

describe('money per day, kept between requests', () => {
  it('reads while another connection writes: it takes no write lock', () => {
    append({ kind: 'charge', fundraiserId: 3, charityCents: 1500, platformCents: 0, at: NOW - DAY });
    const writer = new Database(path.join(dir, 'test.db'));
    writer.pragma('busy_timeout = 0');
    writer.exec('begin immediate');
    try {
      // Were it to ask for the lock, SQLite would answer "database is locked" once its wait ran out.
      const days = moneyDays(db, 3, ZONE, NOW);
      expect([...days.values()].map((day) => day.raisedCents)).toEqual([1500]);
    } finally {
      writer.exec('rollback');
      writer.close();
    }
  });

  it('equals the journal summed afresh after any appends', () => {
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 30 }), { minLength: 1, maxLength: 6 }), (batches) => {
        for (const batch of batches) {
          for (const appended of batch) {
            // A disbursement is a charity's: the journal gives it no fundraiser.
            append(appended.kind === 'disbursement' ? { ...appended, fundraiserId: null } : appended);
          }
          for (const scope of [1, 2, null]) {
            expect(Object.fromEntries(moneyDays(db, scope, ZONE, NOW))).toEqual(Object.fromEntries(fresh(scope)));
          }
        }
      }),
      { numRuns: 40 },
    );
    // And each day is the one the site's zone says, with what the rows say: one of them checked.
    const sums = moneyDays(db, 1, ZONE, NOW);
    const total = [...sums.values()].reduce((cents, day) => cents + day.raisedCents, 0);
    // The fundraiser's total as the journal defines it (its money kinds), to the cent.
    expect(total).toBe(raisedByFundraisers(db, [1]).get(1));
    const day = siteCalendarDate(NOW - 3 * DAY, ZONE);
    const before = sums.get(day)?.raisedCents ?? 0;
    append({ kind: 'charge', fundraiserId: 1, charityCents: 777, platformCents: 0, at: NOW - 3 * DAY });
    expect(moneyDays(db, 1, ZONE, NOW).get(day)!.raisedCents).toBe(before + 777);
  }, 60_000);
  it('sums afresh after more rows than it would walk, and after the zone changes', () => {
    const before = Object.fromEntries(moneyDays(db, 1, ZONE, NOW));
    const many = sqlite.transaction(() => {
      for (let i = 0; i < 5001; i++)
        append({ kind: 'charge', fundraiserId: 2, charityCents: 1, platformCents: 0, at: NOW });
    });
    many();
    append({ kind: 'charge', fundraiserId: 1, charityCents: 5, platformCents: 0, at: NOW });
    const today = siteCalendarDate(NOW, ZONE);
    const after = Object.fromEntries(moneyDays(db, 1, ZONE, NOW));
    expect(after[today]!.raisedCents).toBe((before[today]?.raisedCents ?? 0) + 5);
    expect(after).toEqual(Object.fromEntries(fresh(1)));
    const tokyo = moneyDays(db, 1, 'Asia/Tokyo', NOW);
    expect(Object.fromEntries(tokyo)).toEqual(
      Object.fromEntries(moneyDays(drizzle(sqlite, { schema }), 1, 'Asia/Tokyo', NOW)),
    );
  });
});
