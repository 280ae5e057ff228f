import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import {
  isThrottled,
  recordAttempt,
  retryAfterMs,
  takeAttempts,
  type ThrottleRule,
} from '../../server/infra/security/throttle';

// The sliding-window throttle on a real SQLite file, with its clock passed in: when a refused
// caller may come back (an answer's Retry-After), and several limits taken together or not at all.

let dir: string;
let opened: ReturnType<typeof openDatabase>;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-throttle-'));
  opened = openDatabase(path.join(dir, 'throttle.db'));
});

afterEach(() => {
  opened.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const MINUTE = 60_000;
const start = Date.UTC(2026, 0, 1);
const threeIn10: ThrottleRule = { bucket: 'test', limit: 3, windowMs: 10 * MINUTE };

describe('retryAfterMs', () => {
  it('is 0 under the limit, then lasts until the oldest attempt that counts leaves the window', () => {
    const { db } = opened;
    recordAttempt(db, threeIn10, 'k', start);
    recordAttempt(db, threeIn10, 'k', start + MINUTE);
    expect(retryAfterMs(db, threeIn10, 'k', start + 2 * MINUTE)).toBe(0);
    recordAttempt(db, threeIn10, 'k', start + 2 * MINUTE);
    expect(retryAfterMs(db, threeIn10, 'k', start + 3 * MINUTE)).toBe(7 * MINUTE);
    expect(isThrottled(db, threeIn10, 'k', start + 3 * MINUTE)).toBe(true);
    // The first has left: two in the window, one more fits.
    expect(retryAfterMs(db, threeIn10, 'k', start + 10 * MINUTE + 1)).toBe(0);
    expect(isThrottled(db, threeIn10, 'k', start + 10 * MINUTE + 1)).toBe(false);
    expect(retryAfterMs(db, threeIn10, 'another key', start + 3 * MINUTE)).toBe(0);
  });

  it('waits for the attempt that brings the count under the limit, when more than the limit were counted', () => {
    const { db } = opened;
    for (let minute = 0; minute < 5; minute++) recordAttempt(db, threeIn10, 'k', start + minute * MINUTE);
    // Five in the window: the third newest (minute 2) must leave for two to remain.
    expect(retryAfterMs(db, threeIn10, 'k', start + 5 * MINUTE)).toBe(7 * MINUTE);
  });
});

describe('takeAttempts', () => {
  it('counts one attempt under every rule, or none when any rule is over, with the longest wait', () => {
    const { db } = opened;
    const onePerHour: ThrottleRule = { bucket: 'hourly', limit: 1, windowMs: 60 * MINUTE };
    const taken = takeAttempts(
      db,
      [
        [threeIn10, 'a'],
        [onePerHour, 'b'],
      ],
      start,
    );
    expect('ids' in taken && taken.ids).toHaveLength(2);
    const refused = takeAttempts(
      db,
      [
        [threeIn10, 'a'],
        [onePerHour, 'b'],
      ],
      start + MINUTE,
    );
    expect(refused).toEqual({ retryAfterMs: 59 * MINUTE });
    // Nothing was counted for 'a' by the refusal: two more fit.
    expect('ids' in takeAttempts(db, [[threeIn10, 'a']], start + MINUTE)).toBe(true);
    expect('ids' in takeAttempts(db, [[threeIn10, 'a']], start + MINUTE)).toBe(true);
    expect(takeAttempts(db, [[threeIn10, 'a']], start + MINUTE)).toEqual({ retryAfterMs: 9 * MINUTE });
  });
});
