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

export function recordAttempt(db: Db, rule: ThrottleRule, key: string, now = Date.now()): void {
  db.insert(throttleEvents)
    .values({ bucket: rule.bucket, key, at: new Date(now) })
    .run();
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
