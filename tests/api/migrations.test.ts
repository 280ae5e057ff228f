import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import * as journalService from '../../server/features/journal/service';

// Every migration must apply to a database that already holds data, as it will on a running
// installation that is updated (not only to an empty file, as in the other tests).

type Journal = { entries: { idx: number; tag: string }[] };
const journal = JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')) as Journal;

function indexOf(tag: string) {
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag}`);
  return index;
}

/** A migrations folder holding only the first `count` migrations. */
function firstMigrations(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) fs.copyFileSync(`drizzle/${entry.tag}.sql`, path.join(dir, `${entry.tag}.sql`));
  return dir;
}

describe('migrations', () => {
  it('upgrade a database made by the first migration without losing its users', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-upgrade-')), 'old.db');
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: firstMigrations(1) });
    old
      .prepare(
        "INSERT INTO users (email, password_hash, first_name, is_email_verified, is_admin, created_at) VALUES ('old@example.org', 'x', 'Old', 1, 0, 1700000000000)",
      )
      .run();
    old.close();

    const { sqlite } = openDatabase(file);
    const row = sqlite.prepare('SELECT email, created_at, updated_at FROM users').get() as Record<string, unknown>;
    expect(row).toEqual({ email: 'old@example.org', created_at: 1700000000000, updated_at: 1700000000000 });
    const applied = sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
    expect(applied.n).toBe(journal.entries.length);
    sqlite.close();
  });

  it('carries donations into refunded amounts: full refunds as refunded in full, fee-less payments as fee-free', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-upgrade-')), 'old.db');
    const old = new Database(file);
    const before = journal.entries.findIndex((entry) => entry.tag.endsWith('_partial_refunds'));
    expect(before).toBeGreaterThan(0);
    migrate(drizzle(old), { migrationsFolder: firstMigrations(before) });
    const insert = old.prepare(
      `INSERT INTO donations (payment_intent_id, email, name, amount_cents, tip_cents, status, fee_cents, charity_fee_cents)
       VALUES (?, 'fan@example.org', 'Fan', 1000, 250, ?, ?, ?)`,
    );
    insert.run('refunded', 'refunded', 58, 46);
    insert.run('paid-long-ago', 'succeeded', null, null);
    insert.run('paid', 'succeeded', 58, 46);
    insert.run('never-paid', 'pending', null, null);
    old.close();

    // As they stood until the money journal took their place (0020, tested below).
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: firstMigrations(indexOf('0020_money_journal')) });
    const rows = sqlite
      .prepare(
        'SELECT payment_intent_id AS id, status, fee_cents, charity_fee_cents, refunded_cents, charity_refunded_cents FROM donations ORDER BY rowid',
      )
      .all();
    expect(rows).toEqual([
      // Only full refunds were recorded before: all of it back, and no fee for the charity.
      {
        id: 'refunded',
        status: 'refunded',
        fee_cents: 58,
        charity_fee_cents: 0,
        refunded_cents: 1250,
        charity_refunded_cents: 1000,
      },
      {
        id: 'paid-long-ago',
        status: 'succeeded',
        fee_cents: 0,
        charity_fee_cents: 0,
        refunded_cents: 0,
        charity_refunded_cents: 0,
      },
      {
        id: 'paid',
        status: 'succeeded',
        fee_cents: 58,
        charity_fee_cents: 46,
        refunded_cents: 0,
        charity_refunded_cents: 0,
      },
      {
        id: 'never-paid',
        status: 'pending',
        fee_cents: null,
        charity_fee_cents: null,
        refunded_cents: 0,
        charity_refunded_cents: 0,
      },
    ]);
    sqlite.close();
  });

  it('rebuild the search indexes with single-letter prefixes, keeping what was found and what was not', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-upgrade-')), 'old.db');
    const old = new Database(file);
    const before = journal.entries.findIndex((entry) => entry.tag === '0014_bounded_search');
    migrate(drizzle(old), { migrationsFolder: firstMigrations(before) });
    old.exec(`
      INSERT INTO users (id, email, password_hash) VALUES (1, 'old@example.org', 'x');
      INSERT INTO artists (id, user_id, name, description, status, url_slug, published_at)
        VALUES (1, 1, 'Xylophone Quartet', 'Mallets.', 'PUBLISHED', 'xylophone-quartet', 1700000000000),
               (2, 1, 'Xenon Draft', 'Unseen.', 'DRAFT', 'xenon-draft', NULL);
      INSERT INTO fundraisers (id, user_id, artist_id, name, description, charity_ein, charity_name,
          minimum_donation_cents, status, url_slug, published_at)
        VALUES (1, 1, 1, 'Yodel Nights', 'Songs.', '530196605', 'American National Red Cross', 500, 'PUBLISHED', 'yodel-nights', 1700000000000),
               (2, 1, 1, 'Yawning Draft', 'Unseen.', '530196605', 'American National Red Cross', 500, 'DRAFT', 'yawning-draft', NULL);
    `);
    old.close();

    const { sqlite } = openDatabase(file);
    const found = (table: string, term: string) =>
      sqlite.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().all(`"${term}"*`);
    expect(found('artists_fts', 'x')).toEqual([1]);
    expect(found('fundraisers_fts', 'y')).toEqual([1]);
    expect(found('fundraisers_fts', 'x')).toEqual([1]);
    for (const table of ['artists_fts', 'fundraisers_fts']) {
      const created = sqlite.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table);
      expect(created).toContain("prefix='1 2 3'");
    }
    // The triggers of 0002 and 0007 still keep the new tables in step.
    sqlite.prepare("UPDATE artists SET status = 'PUBLISHED', published_at = 1700000001000 WHERE id = 2").run();
    sqlite.prepare("UPDATE fundraisers SET status = 'PUBLISHED', published_at = 1700000001000 WHERE id = 2").run();
    expect(found('artists_fts', 'x')).toEqual([1, 2]);
    expect(found('fundraisers_fts', 'y')).toEqual([1, 2]);
    sqlite.close();
  });
  it("move manual disbursements' dates entered without a time from midnight UTC to noon, the same day in every US zone", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-upgrade-')), 'old.db');
    const old = new Database(file);
    const before = journal.entries.findIndex((entry) => entry.tag.endsWith('_manual_disbursement_dates'));
    expect(before).toBeGreaterThan(0);
    migrate(drizzle(old), { migrationsFolder: firstMigrations(before) });
    const midnight = Date.UTC(2026, 10, 1);
    const insert = old.prepare(
      `INSERT INTO disbursements (id, ein, charity_name, status, source, amount_cents, finalized_at)
       VALUES (?, '131788491', 'American Cancer Society', 'COMPLETE', ?, 500, ?)`,
    );
    insert.run(1, 'MANUAL', midnight);
    // A moment given with its time, and the giving site's completions, are moments: left alone.
    insert.run(2, 'MANUAL', midnight + 17 * 60 * 60 * 1000);
    insert.run(3, 'www.every.org', midnight);
    old.close();

    const { sqlite } = openDatabase(file);
    const dates = sqlite.prepare('SELECT finalized_at FROM disbursements ORDER BY id').pluck().all();
    expect(dates).toEqual([midnight + 12 * 60 * 60 * 1000, midnight + 17 * 60 * 60 * 1000, midnight]);
    sqlite.close();
  });

  it('build the money journal from the rows, every figure shown unchanged, and keep it append-only', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-upgrade-')), 'old.db');
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: firstMigrations(indexOf('0020_money_journal')) });
    const at = Date.UTC(2026, 9, 1);
    old.exec(`
      INSERT INTO users (id, email, password_hash) VALUES (1, 'artist@example.org', 'x');
      INSERT INTO artists (id, user_id, name, description, status, url_slug) VALUES (1, 1, 'A', 'B', 'PUBLISHED', 'a');
      INSERT INTO fundraisers (id, user_id, artist_id, name, description, charity_ein, charity_name, minimum_donation_cents, status, url_slug)
        VALUES (1, 1, 1, 'One', 'D', '530196605', 'American National Red Cross', 500, 'PUBLISHED', 'one'),
               (2, 1, 1, 'Two', 'D', '131788491', 'American Cancer Society', 500, 'PUBLISHED', 'two');
    `);
    const donation = old.prepare(
      `INSERT INTO donations (id, fundraiser_id, payment_intent_id, email, name, amount_cents, tip_cents, charity_ein,
         charity_name, status, fee_cents, charity_fee_cents, refunded_cents, charity_refunded_cents, succeeded_at, refunded_at)
       VALUES (@id, @fundraiser, @intent, 'fan@example.org', 'Fan', @amount, @tip, @ein, @name, @status, @fee, @charityFee,
         @refunded, @charityRefunded, @succeeded, @refundedAt)`,
    );
    const redCross = { fundraiser: 1, ein: '530196605', name: 'American National Red Cross' };
    const cancer = { fundraiser: 2, ein: '131788491', name: 'American Cancer Society' };
    const none = { fee: null, charityFee: null, refunded: 0, charityRefunded: 0, refundedAt: null, succeeded: at };
    // Paid; refunded in part; refunded in full; paid with a fee Stripe has not told yet (its fee
    // job still waiting, and one whose job gave up); a gift to the platform; never paid; failed.
    donation.run({
      ...none,
      ...redCross,
      id: 1,
      intent: 'pi_paid',
      amount: 1000,
      tip: 250,
      status: 'succeeded',
      fee: 58,
      charityFee: 46,
    });
    donation.run({
      ...none,
      ...redCross,
      id: 2,
      intent: 'pi_partly',
      amount: 4000,
      tip: 1000,
      status: 'succeeded',
      fee: 175,
      charityFee: 112,
      refunded: 1000,
      charityRefunded: 800,
      refundedAt: at + 1000,
    });
    donation.run({
      ...none,
      ...cancer,
      id: 3,
      intent: 'pi_refunded',
      amount: 3000,
      tip: 300,
      status: 'refunded',
      fee: 103,
      charityFee: 0,
      refunded: 3300,
      charityRefunded: 3000,
      refundedAt: at + 2000,
    });
    donation.run({ ...none, ...cancer, id: 4, intent: 'pi_unsettled', amount: 2000, tip: 0, status: 'succeeded' });
    donation.run({ ...none, ...cancer, id: 5, intent: 'pi_given_up', amount: 1000, tip: 100, status: 'succeeded' });
    donation.run({
      ...none,
      fundraiser: null,
      ein: null,
      name: null,
      id: 6,
      intent: 'pi_gift',
      amount: 0,
      tip: 2500,
      status: 'succeeded',
      fee: 85,
      charityFee: 0,
    });
    donation.run({
      ...none,
      ...redCross,
      id: 7,
      intent: 'pi_never',
      amount: 1000,
      tip: 0,
      status: 'pending',
      succeeded: null,
    });
    donation.run({
      ...none,
      ...redCross,
      id: 8,
      intent: 'pi_failed',
      amount: 1000,
      tip: 0,
      status: 'failed',
      succeeded: null,
    });
    old.prepare(`INSERT INTO jobs (kind, payload, status) VALUES ('donation-fee', '{"donationId":4}', 'queued')`).run();
    old.prepare(`INSERT INTO jobs (kind, payload, status) VALUES ('donation-fee', '{"donationId":5}', 'failed')`).run();
    const disbursement = old.prepare(
      `INSERT INTO disbursements (id, ein, charity_name, status, source, amount_cents, finalized_at) VALUES (?, ?, ?, ?, 'MANUAL', ?, ?)`,
    );
    disbursement.run(1, '530196605', 'American National Red Cross', 'COMPLETE', 2000, at + 3000);
    disbursement.run(2, '530196605', 'American National Red Cross', 'CANCELED', 999, null);
    disbursement.run(3, '131788491', 'American Cancer Society', 'PENDING', 500, null);
    disbursement.run(4, '111111111', 'A Food Bank', 'COMPLETE', 700, at + 4000);

    // Every figure as the columns gave it (the queries the journal replaces).
    const before = {
      raised: old
        .prepare(
          `SELECT fundraiser_id AS id, sum(amount_cents - charity_refunded_cents) AS raised FROM donations
                  WHERE status = 'succeeded' AND fundraiser_id IS NOT NULL GROUP BY fundraiser_id ORDER BY id`,
        )
        .all(),
      donors: old
        .prepare(
          `SELECT id, amount_cents - charity_refunded_cents AS amount, tip_cents - (refunded_cents - charity_refunded_cents) AS tip
                  FROM donations WHERE status = 'succeeded' ORDER BY id`,
        )
        .all() as { id: number; amount: number; tip: number }[],
      charities: old
        .prepare(
          `SELECT charity_ein AS ein, sum(amount_cents) - sum(charity_refunded_cents) AS donated, sum(charity_fee_cents) AS fees
                  FROM donations WHERE status = 'succeeded' AND fee_cents IS NOT NULL AND charity_ein IS NOT NULL GROUP BY charity_ein ORDER BY ein`,
        )
        .all() as { ein: string; donated: number; fees: number }[],
      disbursed: old
        .prepare(
          `SELECT ein, sum(amount_cents) AS paid FROM disbursements WHERE status = 'COMPLETE' GROUP BY ein ORDER BY ein`,
        )
        .all() as { ein: string; paid: number }[],
      transactions: old
        .prepare(
          `SELECT id, amount_cents AS amount, tip_cents AS tip, fee_cents AS fee, refunded_cents AS refunded FROM donations
                  WHERE status = 'succeeded' ORDER BY id`,
        )
        .all() as { id: number; amount: number; tip: number; fee: number | null; refunded: number }[],
    };
    old.close();

    const { db, sqlite } = openDatabase(file);
    const raised = journalService.raisedByFundraisers(db, [1, 2]);
    expect([...raised].map(([id, cents]) => ({ id, raised: cents }))).toEqual(before.raised);
    const sums = journalService.sumsOfPayments(db, [1, 2, 3, 4, 5, 6, 7, 8]);
    for (const donor of before.donors) {
      expect({ id: donor.id, amount: sums.get(donor.id)!.donatedCents, tip: sums.get(donor.id)!.tipKeptCents }).toEqual(
        donor,
      );
    }
    // Refunded in full: nothing kept, still on record; never paid and failed: nothing at all.
    expect(sums.get(3)).toMatchObject({ donatedCents: 0, refundedCents: 3300, feeCents: 103 });
    expect(sums.has(7) || sums.has(8)).toBe(false);
    for (const row of before.transactions) {
      const money = sums.get(row.id)!;
      expect({
        chargedDonation: money.chargedDonationCents,
        chargedTip: money.chargedTipCents,
        refunded: money.refundedCents,
      }).toEqual({
        chargedDonation: row.amount,
        chargedTip: row.tip,
        refunded: row.refunded,
      });
      if (row.fee !== null) expect(money).toMatchObject({ feeCents: row.fee, feeReported: 1, feeEstimated: 0 });
      else expect(money).toMatchObject({ feeReported: 0, feeEstimated: 1 });
    }

    // The charities: what the columns said, and one change only: a payment whose fee is not known
    // yet counts now, at the estimated fee (2.2 % + 30¢), where it was left out.
    const charities = journalService.sumsByCharity(db);
    const charity = (ein: string) => charities.find((candidate) => candidate.ein === ein)!;
    const paidTo = (ein: string) => before.disbursed.find((row) => row.ein === ein)?.paid ?? 0;
    const redCrossBefore = before.charities.find((row) => row.ein === '530196605')!;
    expect(charity('530196605')).toEqual({
      ein: '530196605',
      donatedCents: redCrossBefore.donated,
      feeCoverCents: 0,
      charityFeeCents: redCrossBefore.fees,
      disbursedCents: paidTo('530196605'),
    });
    // Before, no payment of it counted: one refunded, two with no fee yet.
    const cancerBefore = before.charities.find((row) => row.ein === '131788491') ?? { donated: 0, fees: 0 };
    const estimated = (payment: number, kept: number) =>
      Math.round(((Math.round((payment * 22) / 1000) + 30) * kept) / payment);
    expect(charity('131788491')).toEqual({
      ein: '131788491',
      donatedCents: cancerBefore.donated + 2000 + 1000,
      feeCoverCents: 0,
      charityFeeCents: cancerBefore.fees + estimated(2000, 2000) + estimated(1100, 1000),
      disbursedCents: 0,
    });
    expect(charity('111111111')).toEqual({
      ein: '111111111',
      donatedCents: 0,
      feeCoverCents: 0,
      charityFeeCents: 0,
      disbursedCents: 700,
    });

    // The fee whose job gave up is shown as never reported; the one still asked for is not.
    const unreported = sqlite.prepare('SELECT id FROM donations WHERE fee_unreported_at IS NOT NULL').pluck().all();
    expect(unreported).toEqual([5]);
    // The money columns are gone: the journal is the one place money is kept.
    const columns = sqlite.prepare("SELECT name FROM pragma_table_info('donations')").pluck().all();
    expect(columns).not.toContain('refunded_cents');
    expect(columns).not.toContain('charity_fee_cents');
    // Append-only: no row of it is changed or removed, whoever tries.
    expect(() => sqlite.prepare('UPDATE money_journal SET charity_cents = 0').run()).toThrow(/append-only/);
    expect(() => sqlite.prepare('DELETE FROM money_journal').run()).toThrow(/append-only/);
    sqlite.close();
  });
});
