import { and, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disbursements, donations } from '../../db/schema';

// The disbursements feature's table, and the per-charity sums of donations it pays out. Status
// changes are conditional UPDATEs from PENDING, so a disbursement ends once, whoever ends it.

export type DisbursementRow = typeof disbursements.$inferSelect;

/**
 * What succeeded donations gave each charity: the donations as made, the charity's part of what
 * was refunded of them since (balances.ts takes it off), and the charity's share of the fees.
 */
export type DonationTotals = {
  ein: string;
  charityName: string;
  donatedCents: number;
  refundedCents: number;
  charityFeeCents: number;
};

/** What each charity has been paid, and whether a payment is under way. */
export type DisbursementTotals = {
  ein: string;
  charityName: string;
  completedCents: number;
  pendingCount: number;
  lastDisbursedAt: Date | null;
};

export function donationTotals(db: Db, ein?: string): DonationTotals[] {
  // SQLite takes the bare charity_name from the row holding max(id): the newest donation's name.
  // A payment whose fee Stripe has not told yet (donations' fee job) counts once it has: without
  // the fee its after-fees figure is not known, and an outstanding amount counted without it
  // could be paid out before the fee took its part.
  return db
    .select({
      ein: sql<string>`${donations.charityEin}`,
      charityName: sql<string>`${donations.charityName}`,
      newest: sql`max(${donations.id})`,
      donatedCents: sql<number>`sum(${donations.amountCents})`,
      refundedCents: sql<number>`sum(${donations.charityRefundedCents})`,
      charityFeeCents: sql<number>`sum(${donations.charityFeeCents})`,
    })
    .from(donations)
    .where(
      and(
        eq(donations.status, 'succeeded'),
        isNotNull(donations.feeCents),
        ein === undefined ? sql`${donations.charityEin} is not null` : eq(donations.charityEin, ein),
      ),
    )
    .groupBy(donations.charityEin)
    .all()
    .map(({ newest: _newest, ...totals }) => totals);
}

export function disbursementTotals(db: Db, ein?: string): DisbursementTotals[] {
  return db
    .select({
      ein: disbursements.ein,
      charityName: sql<string>`${disbursements.charityName}`,
      newest: sql`max(${disbursements.id})`,
      completedCents: sql<number>`coalesce(sum(case when ${disbursements.status} = 'COMPLETE' then ${disbursements.amountCents} end), 0)`,
      pendingCount: sql<number>`sum(${disbursements.status} = 'PENDING')`,
      lastDisbursedAt: sql<
        number | null
      >`max(case when ${disbursements.status} = 'COMPLETE' then ${disbursements.finalizedAt} end)`,
    })
    .from(disbursements)
    .where(ein === undefined ? undefined : eq(disbursements.ein, ein))
    .groupBy(disbursements.ein)
    .all()
    .map(({ newest: _newest, lastDisbursedAt, ...totals }) => ({
      ...totals,
      lastDisbursedAt: lastDisbursedAt === null ? null : new Date(lastDisbursedAt),
    }));
}

export function listDisbursements(db: Db, ein: string, limit: number, offset: number) {
  const results = db
    .select()
    .from(disbursements)
    .where(eq(disbursements.ein, ein))
    .orderBy(desc(disbursements.createdAt), desc(disbursements.id))
    .limit(limit)
    .offset(offset)
    .all();
  const totalCount = db.select({ count: count() }).from(disbursements).where(eq(disbursements.ein, ein)).get()?.count;
  return { results, totalCount: totalCount ?? 0 };
}

export function findDisbursement(db: Db, id: number): DisbursementRow | undefined {
  return db.select().from(disbursements).where(eq(disbursements.id, id)).get();
}

export function insertDisbursement(db: Db, values: typeof disbursements.$inferInsert): DisbursementRow {
  return db.insert(disbursements).values(values).returning().get();
}

/** Ends a PENDING disbursement; undefined when it was not pending (any more). The secret goes with it. */
export function finishPending(db: Db, id: number, status: 'COMPLETE' | 'CANCELED', at: Date) {
  return db
    .update(disbursements)
    .set({ status, callbackSecretHash: null, finalizedAt: at, updatedAt: at })
    .where(and(eq(disbursements.id, id), eq(disbursements.status, 'PENDING')))
    .returning()
    .get();
}
