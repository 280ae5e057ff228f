import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { purchases } from '../db/schema';
import { forbidden } from '../errors';

// A purchase's music for whoever holds its links, without an account (DESIGN.md "Contract details
// for wave 3", corrections): the receipt's page and the success page hand out stream and download
// URLs that carry a grant, `?grant=<purchase id>.<expiry>.<signature>`. The signature is an
// HMAC-SHA256, under a key only the server knows (DATA_DIR/url-grants.key), of what the grant is
// for (one track, or one album's download), the purchase and the expiry, so a grant cannot be
// stretched to another track, another album or a later date. The purchase token itself never
// goes into a media URL: media URLs end up in access logs, caches and the player's state, and the
// token opens the album page with its download for 30 days. A grant is checked against the
// purchase on every request, so a refund (which revokes the purchase) ends it at once.

export const grantMessages = {
  invalid: 'This link is not valid.',
  expired: 'This link has expired. Open the link in your receipt again, or log in to Your music.',
  revoked: 'This album is no longer yours to play: its donation was refunded.',
};

/** What a grant opens: one track's full stream, or one album's download. */
export type GrantScope = { kind: 'track'; trackId: number } | { kind: 'album'; fundraiserId: number };

export type GrantCheck = { ok: true; purchaseId: number } | { ok: false; reason: 'invalid' | 'expired' };

export type UrlGrants = ReturnType<typeof urlGrants>;

const scopeText = (scope: GrantScope) =>
  scope.kind === 'track' ? `track:${scope.trackId}` : `album:${scope.fundraiserId}`;

/** Digits, digits, then 32 bytes of signature in base64url: anything else is not a grant. */
const GRANT_SHAPE = /^([1-9]\d{0,14})\.([1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/;

/** A year-end statement a link opens: its row (giving_statements), the donor's email and the year. */
export type StatementRef = { id: number; email: string; year: number };

/** The statement row a statement link names, read from its shape only (checkStatement checks it). */
export function statementIdOf(token: string): number | null {
  const match = GRANT_SHAPE.exec(token);
  return match ? Number(match[1]) : null;
}

export function urlGrants(key: Buffer, now: () => number = Date.now) {
  const signature = (scope: GrantScope, purchaseId: number, expiresSeconds: number) =>
    createHmac('sha256', key)
      .update(`soundcause-grant\n${scopeText(scope)}\n${purchaseId}\n${expiresSeconds}`)
      .digest();
  // Another prefix than the purchase grants': no grant of one kind is ever a grant of the other.
  const statementSignature = (statement: StatementRef, expiresSeconds: number) =>
    createHmac('sha256', key)
      .update(
        `soundcause-statement\n${statement.id}\n${statement.email.toLowerCase()}\n${statement.year}\n${expiresSeconds}`,
      )
      .digest();

  return {
    /** A grant for `scope`, from purchase `purchaseId`, good until `expiresAt` (to the second). */
    sign(scope: GrantScope, purchaseId: number, expiresAt: Date): string {
      const expiresSeconds = Math.floor(expiresAt.getTime() / 1000);
      return `${purchaseId}.${expiresSeconds}.${signature(scope, purchaseId, expiresSeconds).toString('base64url')}`;
    },

    /**
     * A year-end statement's link (issue 26: `send-statements`), `?token=<statement id>.<expiry>.
     * <signature>`: the statement row the CLI claimed for this donor and year, signed with its
     * email and year, so the token opens that one statement and no other donor's or year's.
     */
    signStatement(statement: StatementRef, expiresAt: Date): string {
      const expiresSeconds = Math.floor(expiresAt.getTime() / 1000);
      return `${statement.id}.${expiresSeconds}.${statementSignature(statement, expiresSeconds).toString('base64url')}`;
    },

    /** Whether `token` was signed here for `statement` (found by statementIdOf) and has not expired. */
    checkStatement(token: string, statement: StatementRef): 'ok' | 'invalid' | 'expired' {
      const match = GRANT_SHAPE.exec(token);
      if (!match || Number(match[1]) !== statement.id) return 'invalid';
      const expiresSeconds = Number(match[2]);
      const given = Buffer.from(match[3]!, 'base64url');
      const expected = statementSignature(statement, expiresSeconds);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return expiresSeconds * 1000 <= now() ? 'expired' : 'ok';
    },

    /**
     * Whether `grant` was signed here for this scope and has not expired. Says nothing of the
     * purchase (purchaseStands does): a grant from a refunded purchase still reads as signed.
     */
    check(grant: string, scope: GrantScope): GrantCheck {
      const match = GRANT_SHAPE.exec(grant);
      if (!match) return { ok: false, reason: 'invalid' };
      const purchaseId = Number(match[1]);
      const expiresSeconds = Number(match[2]);
      const given = Buffer.from(match[3]!, 'base64url');
      const expected = signature(scope, purchaseId, expiresSeconds);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'invalid' };
      // Only a grant that was signed tells that it expired; a forged one is just not valid.
      if (expiresSeconds * 1000 <= now()) return { ok: false, reason: 'expired' };
      return { ok: true, purchaseId };
    },
  };
}

/** The purchase `grant` was signed from, for `scope` and unexpired; else refused, saying why. */
export function grantedPurchase(grants: UrlGrants, grant: string, scope: GrantScope): number {
  const checked = grants.check(grant, scope);
  if (!checked.ok) throw forbidden(grantMessages[checked.reason]);
  return checked.purchaseId;
}

/** Refuses a grant whose purchase no longer gives the album (refunded, or another album's). */
export function requireStandingPurchase(db: Db, purchaseId: number, fundraiserId: number): void {
  if (!purchaseStands(db, purchaseId, fundraiserId)) throw forbidden(grantMessages.revoked);
}

/**
 * The purchase a grant came from still gives this album: it exists, is for this fundraiser and
 * has not been taken back by a refund. Asked on each ranged request of a granted stream.
 */
export function purchaseStands(db: Db, purchaseId: number, fundraiserId: number): boolean {
  return standingPurchase(db).get({ purchaseId, fundraiserId }) !== undefined;
}

const standingPurchase = preparedQuery((db) =>
  db
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(
        eq(purchases.id, sql.placeholder('purchaseId')),
        eq(purchases.fundraiserId, sql.placeholder('fundraiserId')),
        isNull(purchases.revokedAt),
      ),
    )
    .prepare(),
);
