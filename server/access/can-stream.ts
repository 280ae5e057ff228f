import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { donations } from '../db/schema';
import type { SessionUser } from '../infra/security/session-store';

// Who may hear a fundraiser's full tracks (DESIGN.md section 3, "Media"): its owner, admins, and
// whoever bought the album — purchases belong to an email address, so an account sees them once
// that address is verified. Previews are public and never come through here. Every feature that
// hands out a stream URL or serves one asks this one function, so the rule cannot drift.

export type StreamableAlbum = { fundraiserId: number; ownerId: number };

export function canStream(db: Db, user: SessionUser | null, album: StreamableAlbum): boolean {
  if (!user) return false;
  if (user.isAdmin || user.id === album.ownerId) return true;
  return hasBought(db, user, album.fundraiserId);
}

/** A succeeded donation to this fundraiser from the user's verified email address. */
export function hasBought(db: Db, user: SessionUser, fundraiserId: number): boolean {
  if (!user.isEmailVerified) return false;
  const found = db
    .select({ id: donations.id })
    .from(donations)
    .where(
      and(
        eq(donations.fundraiserId, fundraiserId),
        eq(donations.status, 'succeeded'),
        eq(sql`lower(${donations.email})`, user.email.toLowerCase()),
      ),
    )
    .limit(1)
    .get();
  return found !== undefined;
}
