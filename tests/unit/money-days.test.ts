import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { siteCalendarDate } from '../../shared/site-dates';
import { openDatabase } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { moneyDays } from '../../server/features/insight/money-days';

// Issue 29: the insight keeps each fundraiser's (and the site's) money per day between requests
// and adds the journal rows that came since. Whatever arrives, in whatever order of days, what it
// keeps must equal the journal summed afresh, to the cent.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'money-days-'));
const { sqlite, db } = openDatabase(path.join(dir, 'test.db'));
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
  kind: fc.constantFrom('charge', 'charge', 'fee', 'fee_cover', 'refund', 'dispute_lost', 'disbursement'),
  fundraiserId: fc.constantFrom(1, 2),
  charityCents: fc.integer({ min: -50_000, max: 50_000 }),
  platformCents: fc.integer({ min: -500, max: 500 }),
  // Any day of the last two years, and now and then one a little ahead of the clock.
  at: fc.integer({ min: NOW - 730 * DAY, max: NOW + 2 * DAY }),
});

describe('money per day, kept between requests', () => {
  it('equals the journal summed afresh after any appends', () => {
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 30 }), { minLength: 1, maxLength: 6 }), (batches) => {
        for (const batch of batches) {
          for (const appended of batch) {
            // A disbursement is a charity's: the journal gives it no fundraiser.
            append(appended.kind === 'disbursement' ? { ...appended, fundraiserId: null } : appended);
          }
          for (const scope of [1, 2, null]) {
            const kept = Object.fromEntries(moneyDays(db, scope, ZONE, NOW));
            const again = Object.fromEntries(fresh(scope));
            for (const key of new Set([...Object.keys(kept), ...Object.keys(again)])) {
              if (JSON.stringify(kept[key]) !== JSON.stringify(again[key]))
                console.log('DIFF', scope, key, kept[key], again[key]);
            }
            expect(kept).toEqual(again);
          }
        }
      }),
      { numRuns: 40 },
    );
    // And each day is the one the site's zone says, with what the rows say: one of them checked.
    const sums = moneyDays(db, 1, ZONE, NOW);
    const total = [...sums.values()].reduce((cents, day) => cents + day.raisedCents, 0);
    const journal = sqlite
      .prepare(
        `select coalesce(sum(charity_cents), 0) as cents from money_journal
         where fundraiser_id = 1 and kind in ('charge', 'fee_cover', 'refund', 'dispute_lost')`,
      )
      .get() as { cents: number };
    expect(total).toBe(journal.cents);
    const day = siteCalendarDate(NOW - 3 * DAY, ZONE);
    const before = sums.get(day)?.raisedCents ?? 0;
    append({ kind: 'charge', fundraiserId: 1, charityCents: 777, platformCents: 0, at: NOW - 3 * DAY });
    expect(moneyDays(db, 1, ZONE, NOW).get(day)!.raisedCents).toBe(before + 777);
  });
});
