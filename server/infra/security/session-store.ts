import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { changeAwareCache } from '../../db/cache';
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

// A signed-in request whose session is not in memory (below) runs this: prepared once
// (server/db/prepared.ts). Whether it has expired is checked on every use, in findLiveSession.
const storedSession = preparedQuery((db) =>
  db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare(),
);

type StoredSession = { idHash: string; user: SessionUser; expiresAt: Date };

/**
 * Sessions as stored, by cookie value: every signed-in request asks, and the answer changes only
 * with a write to sessions or users, which empties this (server/db/cache.ts). Expiry is checked
 * on every use. Keyed by the cookie value itself, which passes through memory on every request
 * anyway, so that a hit needs no hashing either.
 */
const storedSessions = changeAwareCache<StoredSession>('sessions', 10_000);

/** The live session for a cookie value, extended when due; undefined when dead or unknown. */
export function findLiveSession(db: Db, id: string, now = Date.now()) {
  const row = storedSessions.get(db, id, () => {
    const idHash = sha256(id);
    const found = storedSession(db).get({ idHash });
    return found && { idHash, ...found };
  });
  if (!row || row.expiresAt.getTime() <= now) return undefined;
  const { idHash, user } = row;
  let expiresAt = row.expiresAt;
  if (expiresAt.getTime() - now < SESSION_TTL_MS - RENEW_AFTER_MS) {
    expiresAt = new Date(now + SESSION_TTL_MS);
    db.update(sessions).set({ expiresAt }).where(eq(sessions.idHash, idHash)).run();
  }
  return { idHash, user, expiresAt, renewed: expiresAt !== row.expiresAt };
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
