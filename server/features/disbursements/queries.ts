import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disbursements, donations } from '../../db/schema';

// The disbursements feature's table, and the names its charities were given under. Status changes
// are conditional UPDATEs from PENDING, so a disbursement ends once, whoever ends it. What each
// charity was given and paid is the money journal's (server/features/journal).

export type DisbursementRow = typeof disbursements.$inferSelect;

/** What each charity has been paid out of: whether a payment is under way, since when, and the last one. */
export type DisbursementTotals = {
  ein: string;
  charityName: string;
  pendingCount: number;
  pendingSince: Date | null;
  lastDisbursedAt: Date | null;
};

/**
 * The name each charity was given under, from its newest donation (a donation keeps the name its
 * charity had then). SQLite takes the bare charity_name from the row holding max(id).
 */
export function charityNamesFromDonations(db: Db, ein?: string): Map<string, string> {
  const rows = db
    .select({
      ein: sql<string>`${donations.charityEin}`,
      charityName: sql<string>`${donations.charityName}`,
      newest: sql`max(${donations.id})`,
    })
    .from(donations)
    .where(ein === undefined ? sql`${donations.charityEin} is not null` : eq(donations.charityEin, ein))
    .groupBy(donations.charityEin)
    .all();
  return new Map(rows.map((row) => [row.ein, row.charityName]));
}

export function disbursementTotals(db: Db, ein?: string): DisbursementTotals[] {
  return db
    .select({
      ein: disbursements.ein,
      charityName: sql<string>`${disbursements.charityName}`,
      newest: sql`max(${disbursements.id})`,
      pendingCount: sql<number>`sum(${disbursements.status} = 'PENDING')`,
      pendingSince: sql<
        number | null
      >`min(case when ${disbursements.status} = 'PENDING' then ${disbursements.createdAt} end)`,
      lastDisbursedAt: sql<
        number | null
      >`max(case when ${disbursements.status} = 'COMPLETE' then ${disbursements.finalizedAt} end)`,
    })
    .from(disbursements)
    .where(ein === undefined ? undefined : eq(disbursements.ein, ein))
    .groupBy(disbursements.ein)
    .all()
    .map(({ newest: _newest, lastDisbursedAt, pendingSince, ...totals }) => ({
      ...totals,
      pendingSince: pendingSince === null ? null : new Date(pendingSince),
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
export function finishPending(db: Db, id: number, status: 'COMPLETE' | 'CANCELED' | 'FAILED', at: Date) {
  return db
    .update(disbursements)
    .set({ status, callbackSecretHash: null, finalizedAt: at, updatedAt: at })
    .where(and(eq(disbursements.id, id), eq(disbursements.status, 'PENDING')))
    .returning()
    .get();
}
