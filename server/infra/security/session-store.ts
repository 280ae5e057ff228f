import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { sessions, users } from '../../db/schema';
import { randomToken, sha256 } from './tokens';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry: a session used after this much of its life has passed is extended again. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export function createSession(db: Db, userId: number, now = Date.now()) {
  const id = randomToken();
  const expiresAt = new Date(now + SESSION_TTL_MS);
  db.insert(sessions)
    .values({ idHash: sha256(id), userId, expiresAt })
    .run();
  return { id, expiresAt };
}

// Every API request with a session cookie runs this: prepared once (server/db/prepared.ts).
const liveSession = preparedQuery((db) =>
  db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare(),
);

/** The live session for a cookie value, extended when due; undefined when dead or unknown. */
export function findLiveSession(db: Db, id: string, now = Date.now()) {
  const idHash = sha256(id);
  // A placeholder's value goes to SQLite as it is: expires_at holds milliseconds (timestamp_ms).
  const row = liveSession(db).get({ idHash, now });
  if (!row) return undefined;
  let expiresAt = row.expiresAt;
  if (expiresAt.getTime() - now < SESSION_TTL_MS - RENEW_AFTER_MS) {
    expiresAt = new Date(now + SESSION_TTL_MS);
    db.update(sessions).set({ expiresAt }).where(eq(sessions.idHash, idHash)).run();
  }
  return { idHash, user: row.user, expiresAt, renewed: expiresAt !== row.expiresAt };
}

export function deleteSession(db: Db, idHash: string): void {
  db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
}

/** Ends every session of a user but the one given (after a password change or reset). */
export function deleteOtherSessions(db: Db, userId: number, keepIdHash?: string): void {
  db.delete(sessions)
    .where(keepIdHash ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)) : eq(sessions.userId, userId))
    .run();
}

export function pruneExpiredSessions(db: Db, now = Date.now()): void {
  db.delete(sessions)
    .where(lt(sessions.expiresAt, new Date(now)))
    .run();
}
