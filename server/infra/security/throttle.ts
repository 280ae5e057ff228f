import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { throttleEvents } from '../../db/schema';

// Sliding-window counters kept in SQLite so limits hold across restarts and for the CLI too.

export type ThrottleRule = { bucket: string; limit: number; windowMs: number };

/**
 * How long until one more attempt fits under the rule: 0 when it fits now, else until the
 * `limit`-th newest attempt in the window leaves it (an answer's Retry-After).
 */
export function retryAfterMs(db: Db, rule: ThrottleRule, key: string, now = Date.now()): number {
  const [row] = db
    .select({ at: throttleEvents.at })
    .from(throttleEvents)
    .where(
      and(
        eq(throttleEvents.bucket, rule.bucket),
        eq(throttleEvents.key, key),
        gte(throttleEvents.at, new Date(now - rule.windowMs)),
      ),
    )
    .orderBy(desc(throttleEvents.at))
    .limit(1)
    .offset(rule.limit - 1)
    .all();
  return row ? Math.max(1, row.at.getTime() + rule.windowMs - now) : 0;
}

/** Whether the rule's limit is reached: `limit` attempts under `key` within the window. */
export function isThrottled(db: Db, rule: ThrottleRule, key: string, now = Date.now()): boolean {
  return retryAfterMs(db, rule, key, now) > 0;
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

/**
 * One attempt under each rule and key, counted in one synchronous step like takeAttempt, or none
 * of them when any is over its limit: the attempts' ids, or how long until all would fit.
 */
export function takeAttempts(
  db: Db,
  limits: readonly (readonly [ThrottleRule, string])[],
  now = Date.now(),
): { ids: number[] } | { retryAfterMs: number } {
  const wait = Math.max(0, ...limits.map(([rule, key]) => retryAfterMs(db, rule, key, now)));
  if (wait > 0) return { retryAfterMs: wait };
  return { ids: limits.map(([rule, key]) => recordAttempt(db, rule, key, now)) };
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
