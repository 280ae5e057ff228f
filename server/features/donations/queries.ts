import { and, count, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charities, donations, fundraisers, paymentEvents, purchases } from '../../db/schema';

// The donations feature's tables: donations, purchases and the payment events handled so far.
// Every state change is a conditional UPDATE, so that whoever reports a payment (webhook, success
// page, test provider; twice, at once, in any order) changes it at most once.

export type DonationRow = typeof donations.$inferSelect;
export type NewDonation = typeof donations.$inferInsert;

export function insertDonation(db: Db, values: NewDonation): DonationRow {
  return db.insert(donations).values(values).returning().get();
}

export function findDonationByIntent(db: Db, paymentIntentId: string): DonationRow | undefined {
  return db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get();
}

/** A failed attempt: only a pending donation becomes failed, never a succeeded one. */
export function markFailed(db: Db, id: number, at: Date): boolean {
  return (
    db
      .update(donations)
      .set({ status: 'failed', updatedAt: at })
      .where(and(eq(donations.id, id), eq(donations.status, 'pending')))
      .run().changes === 1
  );
}

/** Gives the row its intent, once the provider made it (createPaymentIntent). */
export function assignIntent(db: Db, id: number, paymentIntentId: string) {
  db.update(donations).set({ paymentIntentId }).where(eq(donations.id, id)).run();
}

/** A row whose intent could not be made: nothing was paid, nothing points at it. */
export function deleteDonation(db: Db, id: number) {
  db.delete(donations).where(eq(donations.id, id)).run();
}

/**
 * The whole payment went back (refunds, a dispute lost): the donation is refunded and its album
 * goes (revokePurchase). Only a succeeded one; true when this call did it.
 */
export function markRefunded(db: Db, id: number, at: Date): boolean {
  return (
    db
      .update(donations)
      .set({ status: 'refunded', refundedAt: at, updatedAt: at })
      .where(and(eq(donations.id, id), eq(donations.status, 'succeeded')))
      .run().changes === 1
  );
}

/** A refund that took the whole payment failed: the donation stands again, and its album comes back. */
export function markRestored(db: Db, id: number, at: Date): boolean {
  return (
    db
      .update(donations)
      .set({ status: 'succeeded', refundedAt: null, updatedAt: at })
      .where(and(eq(donations.id, id), eq(donations.status, 'refunded')))
      .run().changes === 1
  );
}

/** The fee job stopped asking for a fee the processor never reported (the admin page shows it). */
export function markFeeUnreported(db: Db, id: number, at: Date) {
  db.update(donations).set({ feeUnreportedAt: at }).where(eq(donations.id, id)).run();
}

/** Payments whose fee the processor never reported, taken to be asked about again; their ids. */
export function takeUnreportedFees(db: Db): number[] {
  return db
    .update(donations)
    .set({ feeUnreportedAt: null })
    .where(isNotNull(donations.feeUnreportedAt))
    .returning({ id: donations.id })
    .all()
    .map((row) => row.id);
}

export function countUnreportedFees(db: Db): number {
  return db.select({ n: count() }).from(donations).where(isNotNull(donations.feeUnreportedAt)).get()?.n ?? 0;
}

/**
 * The receipt went: recorded, and its link's plain token forgotten (only its hash stays), the
 * link working until `linkExpiresAt`.
 */
export function markReceiptSent(db: Db, id: number, at: Date, linkExpiresAt: Date | null) {
  db.transaction((tx) => {
    tx.update(donations).set({ receiptSentAt: at, updatedAt: at }).where(eq(donations.id, id)).run();
    // A gift's receipt carries no link: the purchase's link is the gift email's (markGiftSent).
    if (linkExpiresAt === null) return;
    tx.update(purchases)
      .set({ receiptToken: null, downloadExpiresAt: linkExpiresAt })
      .where(and(eq(purchases.donationId, id), isNotNull(purchases.receiptToken)))
      .run();
  });
}

/** The gift email went out (issue 26): its link works for 30 days from now, and is not kept in plain text. */
export function markGiftSent(db: Db, id: number, at: Date, linkExpiresAt: Date) {
  db.transaction((tx) => {
    tx.update(donations).set({ giftSentAt: at, updatedAt: at }).where(eq(donations.id, id)).run();
    tx.update(purchases)
      .set({ receiptToken: null, downloadExpiresAt: linkExpiresAt })
      .where(and(eq(purchases.donationId, id), isNotNull(purchases.receiptToken)))
      .run();
  });
}

export function findDonation(db: Db, id: number): DonationRow | undefined {
  return db.select().from(donations).where(eq(donations.id, id)).get();
}

export type PurchaseRow = typeof purchases.$inferSelect;

export function insertPurchase(db: Db, values: typeof purchases.$inferInsert): PurchaseRow {
  return db.insert(purchases).values(values).returning().get();
}

/** The donation's purchase, made now unless it was made already (a gift's day, its job run again). */
export function ensurePurchase(db: Db, values: typeof purchases.$inferInsert): PurchaseRow {
  db.insert(purchases).values(values).onConflictDoNothing({ target: purchases.donationId }).run();
  return findPurchaseByDonation(db, values.donationId)!;
}

export function findPurchaseByDonation(db: Db, donationId: number): PurchaseRow | undefined {
  return db.select().from(purchases).where(eq(purchases.donationId, donationId)).get();
}

export function findPurchaseByTokenHash(db: Db, tokenHash: string): PurchaseRow | undefined {
  return db.select().from(purchases).where(eq(purchases.downloadTokenHash, tokenHash)).get();
}

/**
 * The download link of the receipt about to be sent: its hash for checking links, and the token
 * itself until the receipt is recorded as sent (markReceiptSent), so a retry sends the same link.
 */
export function setDownloadToken(db: Db, id: number, token: string, tokenHash: string, expiresAt: Date) {
  db.update(purchases)
    .set({ downloadTokenHash: tokenHash, downloadExpiresAt: expiresAt, receiptToken: token })
    .where(eq(purchases.id, id))
    .run();
}

export function revokePurchase(db: Db, donationId: number, at: Date) {
  db.update(purchases).set({ revokedAt: at, receiptToken: null }).where(eq(purchases.donationId, donationId)).run();
}

export function restorePurchase(db: Db, donationId: number) {
  db.update(purchases).set({ revokedAt: null }).where(eq(purchases.donationId, donationId)).run();
}

/** Records a provider event as handled; false when it already was (a redelivery). */
export function recordEvent(db: Db, id: string, type: string): boolean {
  return db.insert(paymentEvents).values({ id, type }).onConflictDoNothing().run().changes === 1;
}

/**
 * The statements of fulfilment, prepared once per database (drizzle builds the SQL of a query on
 * every call otherwise, and better-sqlite3 prepares it again: the larger part of a fulfilment's
 * cost). They run on the connection, inside the caller's transaction when there is one.
 */
function prepareFulfilment(db: Db) {
  return {
    byIntent: db
      .select()
      .from(donations)
      .where(eq(donations.paymentIntentId, sql.placeholder('paymentIntentId')))
      .prepare(),
    /**
     * Marks a pending (or failed, then paid with another card) donation succeeded; answers the
     * row when this call did it, nothing when it was already succeeded or refunded in full.
     */
    markSucceeded: db
      .update(donations)
      .set({
        status: 'succeeded',
        succeededAt: sql`${sql.placeholder('at')}`,
        updatedAt: sql`${sql.placeholder('at')}`,
      })
      .where(and(eq(donations.id, sql.placeholder('id')), inArray(donations.status, ['pending', 'failed'])))
      .returning()
      .prepare(),
    insertPurchase: db
      .insert(purchases)
      .values({
        donationId: sql.placeholder('donationId'),
        fundraiserId: sql.placeholder('fundraiserId'),
        email: sql.placeholder('email'),
        createdAt: sql.placeholder('createdAt'),
      })
      .prepare(),
  };
}

const fulfilmentStatements = new WeakMap<Db, ReturnType<typeof prepareFulfilment>>();

export function fulfilmentQueries(db: Db) {
  let statements = fulfilmentStatements.get(db);
  if (!statements) {
    statements = prepareFulfilment(db);
    fulfilmentStatements.set(db, statements);
  }
  return statements;
}

/** The admins' view of a payment (spec part 2 section 3, Admin transaction row); its money is the journal's. */
const adminTransactionColumns = {
  id: donations.id,
  paymentIntentId: donations.paymentIntentId,
  status: donations.status,
  feeUnreportedAt: donations.feeUnreportedAt,
  succeededAt: donations.succeededAt,
  organizationName: donations.charityName,
  ein: donations.charityEin,
  organizationWebsite: charities.websiteUrl,
  projectId: donations.fundraiserId,
  projectName: fundraisers.name,
  name: donations.name,
  email: donations.email,
};

function adminTransactions(db: Db) {
  return db
    .select(adminTransactionColumns)
    .from(donations)
    .leftJoin(fundraisers, eq(fundraisers.id, donations.fundraiserId))
    .leftJoin(charities, eq(charities.ein, donations.charityEin))
    .$dynamic();
}

export type AdminTransactionRow = ReturnType<typeof adminTransactionsAfter>[number];

const newestPaymentFirst = [desc(donations.succeededAt), desc(donations.id)];
/**
 * Every payment that was made, refunded and disputed ones too (issue 23): Stripe kept its fee on
 * them, so the list matches Stripe's only with them in it. Never-paid attempts are not payments.
 */
const paid = and(inArray(donations.status, ['succeeded', 'refunded']), isNotNull(donations.succeededAt));

/** Paid payments, newest first, a page at a time; how many there are is countAdminTransactions'. */
export function listAdminTransactions(db: Db, limit: number, offset: number) {
  return adminTransactions(db)
    .where(paid)
    .orderBy(...newestPaymentFirst)
    .limit(limit)
    .offset(offset)
    .all();
}

export function countAdminTransactions(db: Db): number {
  return db.select({ n: count() }).from(donations).where(paid).get()?.n ?? 0;
}

/**
 * The same list for the CSV, by keyset rather than offset: each page starts after the last row of
 * the one before, so the 1,000th page costs what the first does.
 */
export function adminTransactionsAfter(db: Db, after: { succeededAt: Date; id: number } | null, limit: number) {
  const where = after
    ? and(
        paid,
        or(
          lt(donations.succeededAt, after.succeededAt),
          and(eq(donations.succeededAt, after.succeededAt), lt(donations.id, after.id)),
        ),
      )
    : paid;
  return adminTransactions(db)
    .where(where)
    .orderBy(...newestPaymentFirst)
    .limit(limit)
    .all();
}
