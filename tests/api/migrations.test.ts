import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';

// Every migration must apply to a database that already holds data, as it will on a running
// installation that is updated (not only to an empty file, as in the other tests).

type Journal = { entries: { idx: number; tag: string }[] };
const journal = JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')) as Journal;

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

    const { sqlite } = openDatabase(file);
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
});
