import { changeTracker, type Db } from '../db/client';
import type { SessionUser } from '../infra/security/session-store';

// A short memory of canStream's "yes" for one session and one track, with the rendition it
// answered (issue 13, Audio delivery): a player seeking through a track asks for a range every few
// seconds, and each would otherwise repeat the same lookups (the track, its fundraiser, the
// purchase). Only a "yes" is kept: a refusal is asked afresh, so a new purchase is heard at once.
//
// A grant must never outlive what it was based on for long, so each one is bounded three ways:
// - The session is looked up afresh on every request (server/http/session.ts), so a logout, an
//   ended session or a deleted account finds no grant: grants are keyed by the session's id hash.
//   The user is compared too, so an admin who is no longer one, or an address that changed or is
//   no longer verified, misses the grant and is asked again at once.
// - What the grant rests on that is not the user's (a refund revoking a purchase, a deleted
//   fundraiser, changed tracks) clears the grants where it is written (`clear`): such writes are
//   rare next to the requests of players, so a clear costs nothing worth measuring. With several
//   server processes a clear is counted in the database (`revocations`), and every process
//   forgets its grants once it sees the count move.
// - Anything not covered above expires after `ttlMs` (30 s): the longest a missed case can last.

export type StreamGrants = ReturnType<typeof streamGrants>;

/** What canStream decided on, besides the fundraiser: who the user was. */
const userKey = (user: SessionUser) =>
  `${user.id}:${user.isAdmin ? 1 : 0}:${user.isEmailVerified ? 1 : 0}:${user.email.toLowerCase()}`;

type Grant = { user: string; expiresAt: number; file: string };

/** Clears shared by every server process on the database: a count each one compares with its own. */
export type Revocations = { count(): number; add(): void };

/** Clears counted in `db` (the 'grants' scope of server/db/changes.ts), seen by every process on it. */
export function sharedRevocations(db: Db): Revocations {
  const tracker = changeTracker(db);
  if (!tracker) throw new Error('stream grants need a database opened by openDatabase');
  return {
    count: () => {
      const [local, others] = tracker.version('grants');
      return local + others;
    },
    add: () => tracker.bump('grants'),
  };
}

export function streamGrants({
  ttlMs = 30_000,
  maxEntries = 10_000,
  now = Date.now,
  revocations,
}: { ttlMs?: number; maxEntries?: number; now?: () => number; revocations?: Revocations } = {}) {
  // Insertion order is age order: the first key is the oldest grant.
  const grants = new Map<string, Grant>();
  const keyOf = (idHash: string, trackId: number) => `${idHash}:${trackId}`;
  let revocationsSeen = revocations?.count();

  return {
    /** The rendition file this session was allowed to stream for this track a moment ago, if any. */
    get(idHash: string, user: SessionUser, trackId: number): string | undefined {
      if (revocations) {
        const count = revocations.count();
        if (count !== revocationsSeen) {
          grants.clear();
          revocationsSeen = count;
        }
      }
      const key = keyOf(idHash, trackId);
      const grant = grants.get(key);
      if (!grant) return undefined;
      if (grant.expiresAt <= now() || grant.user !== userKey(user)) {
        grants.delete(key);
        return undefined;
      }
      return grant.file;
    },

    /** Remembers that canStream let this session stream this track's rendition `file`. */
    put(idHash: string, user: SessionUser, trackId: number, file: string) {
      const key = keyOf(idHash, trackId);
      grants.delete(key);
      // Bounded: the oldest grants go first (each costs a lookup again, nothing more).
      while (grants.size >= maxEntries) grants.delete(grants.keys().next().value!);
      grants.set(key, { user: userKey(user), expiresAt: now() + ttlMs, file });
    },

    /** Forgets one grant (its rendition turned out to be gone from disk). */
    forget(idHash: string, trackId: number) {
      grants.delete(keyOf(idHash, trackId));
    },

    /** Forgets a session's grants (it has ended). */
    forgetSession(idHash: string) {
      const prefix = `${idHash}:`;
      for (const key of grants.keys()) if (key.startsWith(prefix)) grants.delete(key);
    },

    /**
     * Forgets every grant: something they may rest on has changed (a refund, a deletion, tracks).
     * Called inside the transaction making that change, so that the count every process reads
     * commits with it.
     */
    clear() {
      grants.clear();
      revocations?.add();
      revocationsSeen = revocations?.count();
    },

    get size() {
      return grants.size;
    },
  };
}
