import { and, count, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { throttleEvents } from '../../db/schema';

// Sliding-window counters kept in SQLite so limits hold across restarts and for the CLI too.

export type ThrottleRule = { bucket: string; limit: number; windowMs: number };

export function isThrottled(db: Db, rule: ThrottleRule, key: string, now = Date.now()): boolean {
  const [row] = db
    .select({ n: count() })
    .from(throttleEvents)
    .where(
      and(
        eq(throttleEvents.bucket, rule.bucket),
        eq(throttleEvents.key, key),
        gte(throttleEvents.at, new Date(now - rule.windowMs)),
      ),
    )
    .all();
  return (row?.n ?? 0) >= rule.limit;
}

/** Counts one attempt; returns its id so an attempt that turned out fine can be taken back. */
export function recordAttempt(db: Db, rule: ThrottleRule, key: string, now = Date.now()): number {
  return db
    .insert(throttleEvents)
    .values({ bucket: rule.bucket, key, at: new Date(now) })
    .returning({ id: throttleEvents.id })
    .get().id;
}

/**
 * Checks the limit and counts this attempt in one synchronous step, so parallel requests cannot
 * all slip through before any of them is counted. Returns the attempt's id, or null when over.
 */
export function takeAttempt(db: Db, rule: ThrottleRule, key: string, now = Date.now()): number | null {
  if (isThrottled(db, rule, key, now)) return null;
  return recordAttempt(db, rule, key, now);
}

export function forgetAttempt(db: Db, id: number): void {
  db.delete(throttleEvents).where(eq(throttleEvents.id, id)).run();
}

export function clearAttempts(db: Db, rule: ThrottleRule, key: string): void {
  db.delete(throttleEvents)
    .where(and(eq(throttleEvents.bucket, rule.bucket), eq(throttleEvents.key, key)))
    .run();
}

/** Drops events older than a day; called now and then so the table stays small. */
export function pruneThrottleEvents(db: Db, now = Date.now()): void {
  db.delete(throttleEvents)
    .where(lt(throttleEvents.at, new Date(now - 24 * 60 * 60 * 1000)))
    .run();
}
