import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedRevocations, streamGrants } from '../../server/access/stream-grants';
import { changeAwareCache } from '../../server/db/cache';
import { OTHERS_CHECK_MS } from '../../server/db/changes';
import { openDatabase } from '../../server/db/client';
import { formatIdentity, identify } from '../../server/infra/processes/identity';
import type { SessionUser } from '../../server/infra/security/session-store';
import { uploadReservations } from '../../server/infra/storage/upload-reservations';

// Several server processes on one SQLite file (WEB_CONCURRENCY, issue 25): what one writes must
// empty the others' caches at once, and only what can change a cache must; uploads in flight
// count in every process. Each "process" here is
// a connection of its own, opened as a server opens it; a write from another is real SQLite.

let dir: string;
let file: string;
const opened: { sqlite: Database.Database }[] = [];

/** A server's connection: the first one migrates, as the primary does; the others do not. */
function server() {
  const connection = openDatabase(file, { sharedByServers: true, migrate: opened.length === 0 });
  opened.push(connection);
  return connection;
}

/** The next turn of the event loop: where the next request's work starts. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-shared-'));
  file = path.join(dir, 'soundcause.db');
});

afterEach(() => {
  for (const connection of opened.splice(0)) connection.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const setSetting = (sqlite: Database.Database, value: string) =>
  sqlite
    .prepare(`INSERT INTO settings (key, value) VALUES ('motto', ?) ON CONFLICT DO UPDATE SET value = ?`)
    .run(value, value);
const readSetting = (sqlite: Database.Database) =>
  sqlite.prepare(`SELECT value FROM settings WHERE key = 'motto'`).pluck().get() as string | undefined;

describe('caches shared by several server processes', () => {
  it("shows another process's write on the very next request, and empties nothing for a page view", async () => {
    const one = server();
    const two = server();
    const cache = changeAwareCache<string>('public', 10);
    let loads = 0;
    const cached = () =>
      cache.get(one.db, 'motto', () => {
        loads++;
        return readSetting(one.sqlite) ?? 'none';
      });

    setSetting(two.sqlite, 'first');
    await nextTurn();
    expect(cached()).toBe('first');
    await nextTurn();
    expect(cached()).toBe('first');
    expect(loads).toBe(1);

    // Not within OTHERS_CHECK_MS: on the next turn, as the next request after the write's answer.
    setSetting(two.sqlite, 'second');
    await nextTurn();
    expect(cached()).toBe('second');
    expect(loads).toBe(2);

    // Tables no cache is made from (page views, throttles, jobs) leave the caches alone.
    two.sqlite
      .prepare(`INSERT INTO analytics_daily_counts (day, kind, name, count) VALUES ('2026-11-29', 'pageview', '/', 1)`)
      .run();
    two.sqlite.prepare(`INSERT INTO throttle_events (bucket, key, at) VALUES ('login', 'x', 1)`).run();
    await nextTurn();
    expect(cached()).toBe('second');
    expect(loads).toBe(2);
  });

  it("counts a write from any connection, even one that is not a server (an operator's sqlite3 shell)", async () => {
    const one = server();
    const cache = changeAwareCache<string>('public', 10);
    const cached = () => cache.get(one.db, 'motto', () => readSetting(one.sqlite) ?? 'none');
    expect(cached()).toBe('none');

    const shell = new Database(file);
    try {
      setSetting(shell, 'from the shell');
    } finally {
      shell.close();
    }
    await nextTurn();
    expect(cached()).toBe('from the shell');
  });

  it('sees the CLI within OTHERS_CHECK_MS when the server runs alone', async () => {
    const alone = openDatabase(file);
    opened.push(alone);
    const cli = openDatabase(file);
    opened.push(cli);
    const cache = changeAwareCache<string>('public', 10);
    const cached = () => cache.get(alone.db, 'motto', () => readSetting(alone.sqlite) ?? 'none');
    expect(cached()).toBe('none');
    setSetting(cli.sqlite, 'from the CLI');
    await expect.poll(cached, { timeout: 5 * OTHERS_CHECK_MS, interval: 20 }).toBe('from the CLI');
  });

  it('keeps its triggers as they are when opened again, and makes a lost one again', () => {
    const first = server();
    const triggers = () =>
      first.sqlite
        .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'count_changes_%'`)
        .pluck()
        .get() as number;
    const schemaVersion = () => first.sqlite.pragma('schema_version', { simple: true }) as number;
    const count = triggers();
    expect(count).toBeGreaterThan(30);
    const version = schemaVersion();

    opened.push(openDatabase(file));
    expect(schemaVersion()).toBe(version);

    first.sqlite.exec('DROP TRIGGER count_changes_settings_update');
    expect(triggers()).toBe(count - 1);
    opened.push(openDatabase(file));
    expect(triggers()).toBe(count);
  });
});

describe('stream grants shared by several server processes', () => {
  const fan: SessionUser = { id: 7, email: 'fan@example.org', isAdmin: false, isEmailVerified: true } as SessionUser;

  it('forgets a grant as soon as another process revokes access (a refund there), and not before', async () => {
    const one = server();
    const two = server();
    const grantsHere = streamGrants({ revocations: sharedRevocations(one.db) });
    const grantsThere = streamGrants({ revocations: sharedRevocations(two.db) });

    grantsHere.put('session', fan, 1, 'track-1.m4a');
    await nextTurn();
    expect(grantsHere.get('session', fan, 1)).toBe('track-1.m4a');

    // Another process's write that takes nothing away keeps the grant.
    setSetting(two.sqlite, 'unrelated');
    await nextTurn();
    expect(grantsHere.get('session', fan, 1)).toBe('track-1.m4a');

    grantsThere.clear();
    await nextTurn();
    expect(grantsHere.get('session', fan, 1)).toBeUndefined();

    // A grant made after the revocation holds again.
    grantsHere.put('session', fan, 1, 'track-1.m4a');
    await nextTurn();
    expect(grantsHere.get('session', fan, 1)).toBe('track-1.m4a');
  });
});

describe('uploads in flight, counted across server processes', () => {
  /** The identity of a process that has ended (a server that crashed mid-upload). */
  async function endedProcess(): Promise<string> {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    await expect.poll(() => child.pid !== undefined && identify(child.pid)).toBeTruthy();
    const identity = formatIdentity(identify(child.pid!)!);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return identity;
  }

  it("sees the other process's reservations, releases its own, and clears a dead process's", async () => {
    const one = server();
    const two = server();
    const here = uploadReservations(one.db);
    const dead = await endedProcess();
    const there = uploadReservations(two.db, dead);

    const mine = here.reserve(7, 1_000);
    const theirs = there.reserve(7, 5_000);
    there.reserve(8, 2_000);
    expect(here.reservedBy(7)).toBe(6_000);
    expect(here.reservedTotal()).toBe(8_000);

    mine.release();
    mine.release();
    expect(there.reservedBy(7)).toBe(5_000);

    // The process behind `there` has ended: its uploads ended with it.
    expect(here.releaseAbandoned()).toBe(2);
    expect(here.reservedTotal()).toBe(0);
    theirs.release();
    expect(here.reservedTotal()).toBe(0);

    // A live process's reservations stay.
    here.reserve(9, 300);
    expect(there.releaseAbandoned()).toBe(0);
    expect(there.reservedTotal()).toBe(300);
  });
});
