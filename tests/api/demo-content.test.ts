import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable, SQLiteTimestamp } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema';
import { seedDemoContent } from '../../server/demo/seed';
import { useTestServer } from '../fixtures/use-test-server';

// The demo content a laptop run starts with (server/demo), seeded into a fresh database: nothing
// in it is dated in the future (it would sort above everything real added afterwards, and the
// ledger would show a payout on a day still to come), and its payout comes after the donations it
// pays.

const server = useTestServer();

/** Every table of the schema, with its columns that hold a moment. */
function timestampColumns() {
  return Object.values(schema as Record<string, unknown>)
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .flatMap((table) => {
      const config = getTableConfig(table);
      return config.columns
        .filter((column) => is(column, SQLiteTimestamp))
        .map((column) => ({ table: config.name, column: column.name }));
    });
}

describe('demo content', () => {
  it(
    'dates nothing in the future, and pays a charity after the donations it pays for',
    { timeout: 60_000 },
    async () => {
      await seedDemoContent(server.db, server.config, server.media);
      const now = Date.now();

      const columns = timestampColumns();
      // The check reaches the tables the demo writes (not a vacuous pass over an empty list).
      expect(columns).toEqual(
        expect.arrayContaining([
          { table: 'donations', column: 'succeeded_at' },
          { table: 'disbursements', column: 'finalized_at' },
          { table: 'fundraisers', column: 'published_at' },
          { table: 'artists', column: 'published_at' },
        ]),
      );
      const future: string[] = [];
      for (const { table, column } of columns) {
        // A deadline (a link's or a session's expiry) is in the future by design; the demo sets none.
        if (column.endsWith('expires_at')) continue;
        const latest = server.sqlite.prepare(`SELECT max("${column}") AS latest FROM "${table}"`).get() as {
          latest: number | null;
        };
        if (latest.latest !== null && latest.latest > now) {
          future.push(`${table}.${column} is ${new Date(latest.latest).toISOString()}`);
        }
      }
      expect(future).toEqual([]);

      const payouts = server.sqlite
        .prepare('SELECT ein, created_at AS createdAt, finalized_at AS finalizedAt FROM disbursements')
        .all() as { ein: string; createdAt: number; finalizedAt: number }[];
      expect(payouts.length).toBeGreaterThan(0);
      for (const payout of payouts) {
        const { lastGift, gifts } = server.sqlite
          .prepare(
            `SELECT max(succeeded_at) AS lastGift, count(*) AS gifts FROM donations
           WHERE charity_ein = ? AND status = 'succeeded'`,
          )
          .get(payout.ein) as { lastGift: number; gifts: number };
        expect(gifts).toBeGreaterThan(0);
        expect(payout.finalizedAt).toBeGreaterThan(lastGift);
        expect(payout.createdAt).toBeGreaterThan(lastGift);
      }

      // A fundraiser's donations come after it was published.
      const early = server.sqlite
        .prepare(
          `SELECT count(*) AS n FROM donations JOIN fundraisers ON fundraisers.id = donations.fundraiser_id
         WHERE donations.succeeded_at < fundraisers.published_at`,
        )
        .get() as { n: number };
      expect(early.n).toBe(0);
    },
  );
});
