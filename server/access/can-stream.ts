import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { purchases } from '../db/schema';
import type { SessionUser } from '../infra/security/session-store';

// Who may hear a fundraiser's full tracks (DESIGN.md section 3, "Media"): its owner, admins, and
// whoever bought the album — purchases belong to an email address, so an account sees them once
// that address is verified. Bought music is the fan's to keep (the footer's promise): once the
// fundraiser is deleted, its buyers still hear it and admins still see it to help them, while its
// owner, who deleted it, loses it like anyone who did not buy it. Previews are public and never
// come through here. Every feature that hands out a stream URL or serves one asks this rule (one
// album: canStream; a list: streamAccess, which looks up all purchases at once), so it cannot drift.

export type StreamableAlbum = { fundraiserId: number; ownerId: number; deleted: boolean };

/** The rule itself; `bought` is asked only when nothing else lets the user in. */
function allowed(user: SessionUser | null, album: StreamableAlbum, bought: () => boolean): boolean {
  if (!user) return false;
  if (user.isAdmin) return true;
  if (user.id === album.ownerId && !album.deleted) return true;
  return bought();
}

export function canStream(db: Db, user: SessionUser | null, album: StreamableAlbum): boolean {
  return allowed(user, album, () => user !== null && hasBought(db, user, album.fundraiserId));
}

/**
 * canStream for a list of albums (search and featured pages): one purchase query for all of
 * them instead of one per album. The answer is for these albums only.
 */
export function streamAccess(
  db: Db,
  user: SessionUser | null,
  albums: StreamableAlbum[],
): (album: StreamableAlbum) => boolean {
  const toLookUp = albums.filter((album) => !allowed(user, album, () => false)).map((album) => album.fundraiserId);
  const bought = user ? boughtFundraiserIds(db, user, toLookUp) : new Set<number>();
  return (album) => allowed(user, album, () => bought.has(album.fundraiserId));
}

/**
 * The purchase condition: a purchase (made by a succeeded donation, taken back by its refund) for
 * this address, compared without case; the expression matches the index purchases_email_idx.
 */
const boughtWith = (email: string) =>
  and(eq(sql`lower(${purchases.email})`, email.toLowerCase()), isNull(purchases.revokedAt));

/** A succeeded donation to this fundraiser from the user's verified email address. */
export function hasBought(db: Db, user: SessionUser, fundraiserId: number): boolean {
  if (!user.isEmailVerified) return false;
  const found = boughtOne(db).get({ email: user.email.toLowerCase(), fundraiserId });
  return found !== undefined;
}

// Asked on a fundraiser's page by every signed-in visitor: prepared once (server/db/prepared.ts).
const boughtOne = preparedQuery((db) =>
  db
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(
        eq(sql`lower(${purchases.email})`, sql.placeholder('email')),
        isNull(purchases.revokedAt),
        eq(purchases.fundraiserId, sql.placeholder('fundraiserId')),
      ),
    )
    .limit(1)
    .prepare(),
);

/** Which of these fundraisers the user bought (as hasBought), in one query. */
export function boughtFundraiserIds(db: Db, user: SessionUser, fundraiserIds: number[]): Set<number> {
  if (!user.isEmailVerified || fundraiserIds.length === 0) return new Set();
  const rows = db
    .selectDistinct({ id: purchases.fundraiserId })
    .from(purchases)
    .where(and(boughtWith(user.email), inArray(purchases.fundraiserId, [...new Set(fundraiserIds)])))
    .all();
  return new Set(rows.map((row) => row.id));
}
