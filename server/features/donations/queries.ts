import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
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
 * A refund, whole or partial: the payment's cumulative refunded amount and the charity's figures
 * made from it (money.ts). Only ever grows, so a repeated or late event cannot undo a later one.
 * A full refund marks the donation refunded whatever its state was; a partial one leaves the
 * state as it is. True when the row changed.
 */
export function recordRefund(
  db: Db,
  id: number,
  refund: { refundedCents: number; charityRefundedCents: number; charityFeeCents: number | null; full: boolean },
  at: Date,
): boolean {
  return (
    db
      .update(donations)
      .set({
        refundedCents: refund.refundedCents,
        charityRefundedCents: refund.charityRefundedCents,
        charityFeeCents: refund.charityFeeCents,
        ...(refund.full ? { status: 'refunded' as const, refundedAt: at } : {}),
        updatedAt: at,
      })
      .where(and(eq(donations.id, id), lt(donations.refundedCents, refund.refundedCents)))
      .run().changes === 1
  );
}

/** The fee of a payment fulfilled before the processor knew it; set once. */
export function recordFee(db: Db, id: number, feeCents: number, charityFeeCents: number) {
  db.update(donations)
    .set({ feeCents, charityFeeCents, updatedAt: new Date() })
    .where(and(eq(donations.id, id), isNull(donations.feeCents)))
    .run();
}

/**
 * The receipt went: recorded, and its link's plain token forgotten (only its hash stays), the
 * link working until `linkExpiresAt`.
 */
export function markReceiptSent(db: Db, id: number, at: Date, linkExpiresAt: Date) {
  db.transaction((tx) => {
    tx.update(donations).set({ receiptSentAt: at, updatedAt: at }).where(eq(donations.id, id)).run();
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
     * Marks a pending (or failed, then paid with another card) donation succeeded with its fees
     * (null while the processor does not know them yet); answers the row when this call did it,
     * nothing when it was already succeeded or refunded in full.
     */
    markSucceeded: db
      .update(donations)
      .set({
        status: 'succeeded',
        feeCents: sql`${sql.placeholder('feeCents')}`,
        charityFeeCents: sql`${sql.placeholder('charityFeeCents')}`,
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

/** The admins' view of a payment (spec part 2 section 3, Admin transaction row). */
const adminTransactionColumns = {
  id: donations.id,
  succeededAt: donations.succeededAt,
  organizationName: donations.charityName,
  ein: donations.charityEin,
  organizationWebsite: charities.websiteUrl,
  projectId: donations.fundraiserId,
  projectName: fundraisers.name,
  name: donations.name,
  email: donations.email,
  amountCents: donations.amountCents,
  tipCents: donations.tipCents,
  feeCents: donations.feeCents,
  refundedCents: donations.refundedCents,
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
const succeededOnly = eq(donations.status, 'succeeded');

/**
 * Succeeded payments, newest first, a page at a time (DESIGN.md: refunded and unpaid ones are not
 * transactions; a partly refunded one still is, with what was refunded). How many there are in
 * all is sumAdminTransactions' count.
 */
export function listAdminTransactions(db: Db, limit: number, offset: number) {
  return adminTransactions(db)
    .where(succeededOnly)
    .orderBy(...newestPaymentFirst)
    .limit(limit)
    .offset(offset)
    .all();
}

type Summable = {
  amountCents: SQLiteColumn;
  tipCents: SQLiteColumn;
  feeCents: SQLiteColumn;
  refundedCents: SQLiteColumn;
};

/** The Transactions tab's sums over some of its rows: each figure as the rows show it. */
const sumsOf = (rows: Summable) => ({
  payments: sql<number>`count(*)`,
  donationCents: sql<number>`coalesce(sum(${rows.amountCents}), 0)`,
  tipCents: sql<number>`coalesce(sum(${rows.tipCents}), 0)`,
  // sum() skips the fees not known yet; they are counted instead, so none passes unnoticed.
  feeCents: sql<number>`coalesce(sum(${rows.feeCents}), 0)`,
  feesPending: sql<number>`count(*) - count(${rows.feeCents})`,
  refundedCents: sql<number>`coalesce(sum(${rows.refundedCents}), 0)`,
});

/**
 * The one place the Transactions tab's money is summed (the list's totals; the CSV's rows add up
 * to the same): over every row it lists, or over one page of them, chosen exactly as
 * listAdminTransactions chooses it. Integer cents, added by SQLite, exact. When money becomes a
 * journal, this is what changes.
 */
export function sumAdminTransactions(db: Db, page?: { limit: number; offset: number }) {
  if (!page) return db.select(sumsOf(donations)).from(donations).where(succeededOnly).get()!;
  const shown = db
    .select({
      amountCents: donations.amountCents,
      tipCents: donations.tipCents,
      feeCents: donations.feeCents,
      refundedCents: donations.refundedCents,
    })
    .from(donations)
    .where(succeededOnly)
    .orderBy(...newestPaymentFirst)
    .limit(page.limit)
    .offset(page.offset)
    .as('shown');
  return db.select(sumsOf(shown)).from(shown).get()!;
}

/**
 * The same list for the CSV, by keyset rather than offset: each page starts after the last row of
 * the one before, so the 1,000th page costs what the first does.
 */
export function adminTransactionsAfter(db: Db, after: { succeededAt: Date; id: number } | null, limit: number) {
  const where = after
    ? and(
        succeededOnly,
        or(
          lt(donations.succeededAt, after.succeededAt),
          and(eq(donations.succeededAt, after.succeededAt), lt(donations.id, after.id)),
        ),
      )
    : succeededOnly;
  return adminTransactions(db)
    .where(where)
    .orderBy(...newestPaymentFirst)
    .limit(limit)
    .all();
}
