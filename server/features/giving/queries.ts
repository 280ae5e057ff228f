import { and, desc, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { donations, fundraisers, givingStatements, purchases } from '../../db/schema';

// The giving history's read model (issue 26) and its own table, giving_statements. A donor's
// payments are read from donations, with their fundraiser's name, by the donor's email compared
// without case, through donations_email_idx (lower(email)); their money is the journal's, asked
// for through the journal's service. Nothing here writes a table another feature owns
// (docs/architecture.md, sanctioned reads across owners).

export type DonationRow = typeof donations.$inferSelect;

/** A payment made: a refunded one too (what went back is shown), never an attempt that was not paid. */
const paid = and(inArray(donations.status, ['succeeded', 'refunded']), isNotNull(donations.succeededAt));

/**
 * The same, for a donor's payments: SQLite would rather read donations_status_idx for the status
 * and the year's range, which is every donor's payments of the year; the unary + keeps the status
 * out of any index (sqlite.org/optoverview.html, "Disqualifying WHERE clause terms"), so it reads
 * donations_email_idx, only this donor's.
 */
const paidByDonor = and(sql`+${donations.status} in ('succeeded', 'refunded')`, isNotNull(donations.succeededAt));

/** The email as donations_email_idx holds it: SQLite uses the index only for this very expression. */
const donorEmailIs = (email: string) => sql`lower(${donations.email}) = ${email.toLowerCase()}`;

const historyColumns = {
  donation: donations,
  fundraiserName: fundraisers.name,
};

export type HistoryRow = { donation: DonationRow; fundraiserName: string | null };

/** The donor's payments made in [from, to), newest first. */
export function donationsOfDonor(db: Db, email: string, from: Date, to: Date): HistoryRow[] {
  return db
    .select(historyColumns)
    .from(donations)
    .leftJoin(fundraisers, eq(fundraisers.id, donations.fundraiserId))
    .where(and(donorEmailIs(email), paidByDonor, gte(donations.succeededAt, from), lt(donations.succeededAt, to)))
    .orderBy(desc(donations.succeededAt), desc(donations.id))
    .all();
}

/** When each of the donor's payments was made (for the years they gave in). */
export function paymentMomentsOfDonor(db: Db, email: string): Date[] {
  return db
    .select({ at: donations.succeededAt })
    .from(donations)
    .where(and(donorEmailIs(email), paidByDonor))
    .all()
    .flatMap((row) => (row.at ? [row.at] : []));
}

/** One of the donor's payments, by its intent id; undefined when it is someone else's or not paid. */
export function findDonorPayment(db: Db, email: string, paymentIntentId: string): DonationRow | undefined {
  return db
    .select()
    .from(donations)
    .where(and(eq(donations.paymentIntentId, paymentIntentId), donorEmailIs(email), paid))
    .get();
}

export function findDonation(db: Db, id: number): DonationRow | undefined {
  return db.select().from(donations).where(eq(donations.id, id)).get();
}

/** The album a payment gave, if it gave one: to whose email, and whether a refund took it back. */
export function purchaseOfDonation(db: Db, donationId: number) {
  return db
    .select({ email: purchases.email, revokedAt: purchases.revokedAt })
    .from(purchases)
    .where(eq(purchases.donationId, donationId))
    .get();
}

/** Every email (lower-cased) with a payment that stands, made in [from, to): the statements' donors. */
export function donorsBetween(db: Db, from: Date, to: Date): string[] {
  // donations_status_idx (status, succeeded_at) finds the year's payments.
  return db
    .selectDistinct({ email: sql<string>`lower(${donations.email})` })
    .from(donations)
    .where(and(eq(donations.status, 'succeeded'), gte(donations.succeededAt, from), lt(donations.succeededAt, to)))
    .orderBy(sql`lower(${donations.email})`)
    .all()
    .map((row) => row.email);
}

export type StatementRow = typeof givingStatements.$inferSelect;

/**
 * Claims the donor's statement of the year: the row, or undefined when one was claimed before
 * (the unique (email, year) index decides, whoever asks at the same moment).
 */
export function claimStatement(db: Db, email: string, year: number, at: Date): StatementRow | undefined {
  return db
    .insert(givingStatements)
    .values({ email: email.toLowerCase(), year, createdAt: at })
    .onConflictDoNothing({ target: [givingStatements.email, givingStatements.year] })
    .returning()
    .get();
}

export function findStatement(db: Db, id: number): StatementRow | undefined {
  return db.select().from(givingStatements).where(eq(givingStatements.id, id)).get();
}

export function markStatementSent(db: Db, id: number, at: Date) {
  db.update(givingStatements).set({ sentAt: at }).where(eq(givingStatements.id, id)).run();
}
