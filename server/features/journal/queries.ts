import { and, asc, eq, gte, inArray, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { type JournalKind, moneyJournal } from '../../db/schema';

// The money journal's table: rows are only ever added (migration 0020's triggers refuse an update
// or a delete). The sums here are the only place money is added up; service.ts says what they mean.

export type JournalRow = typeof moneyJournal.$inferSelect;
export type NewJournalRow = typeof moneyJournal.$inferInsert;

// A payment's rows are read and written on every event of it (a fulfilment among them, the
// hottest money path): these statements are built and prepared once per database, and run on its
// connection, so inside the caller's transaction (server/db/prepared.ts).
const statements = preparedQuery((db) => ({
  insert: db
    .insert(moneyJournal)
    .values({
      providerId: sql.placeholder('providerId'),
      kind: sql.placeholder('kind'),
      donationId: sql.placeholder('donationId'),
      disbursementId: sql.placeholder('disbursementId'),
      fundraiserId: sql.placeholder('fundraiserId'),
      charityEin: sql.placeholder('charityEin'),
      charityCents: sql.placeholder('charityCents'),
      platformCents: sql.placeholder('platformCents'),
      processorCents: sql.placeholder('processorCents'),
      estimated: sql.placeholder('estimated'),
      occurredAt: sql.placeholder('occurredAt'),
    })
    .onConflictDoNothing({ target: moneyJournal.providerId })
    .prepare(),
  byProviderId: db
    .select({ id: moneyJournal.id })
    .from(moneyJournal)
    .where(eq(moneyJournal.providerId, sql.placeholder('providerId')))
    .prepare(),
  ofDonation: db
    .select()
    .from(moneyJournal)
    .where(eq(moneyJournal.donationId, sql.placeholder('donationId')))
    .orderBy(asc(moneyJournal.id))
    .prepare(),
}));

/** Adds a row; false when a row of that provider id is there already (a redelivery: nothing added). */
export function insertRow(db: Db, row: NewJournalRow): boolean {
  const values = {
    donationId: null,
    disbursementId: null,
    fundraiserId: null,
    charityEin: null,
    charityCents: 0,
    platformCents: 0,
    processorCents: 0,
    estimated: false,
    ...row,
  };
  return statements(db).insert.run(values).changes === 1;
}

export function hasRow(db: Db, providerId: string): boolean {
  return statements(db).byProviderId.get({ providerId }) !== undefined;
}

export function rowsOfDonation(db: Db, donationId: number): JournalRow[] {
  return statements(db).ofDonation.all({ donationId });
}

/** Every row of these payments (the reconciliation's), oldest first. */
export function rowsOfDonations(db: Db, donationIds: number[]): JournalRow[] {
  if (donationIds.length === 0) return [];
  return db
    .select()
    .from(moneyJournal)
    .where(inArray(moneyJournal.donationId, donationIds))
    .orderBy(asc(moneyJournal.id))
    .all();
}

const t = moneyJournal;
const total = sql`(${t.charityCents} + ${t.platformCents} + ${t.processorCents})`;
const isFee = sql`${t.kind} = 'fee'`;
const isFeeCover = sql`${t.kind} = 'fee_cover'`;
const sumWhere = (condition: SQLWrapper, value: SQLWrapper) =>
  sql<number>`coalesce(sum(case when ${condition} then ${value} else 0 end), 0)`;
const moneyKinds = sql`${t.kind} in ('charge', 'fee_cover', 'refund', 'refund_reversed', 'dispute_opened', 'dispute_won', 'dispute_lost')`;
const refundKinds = sql`${t.kind} in ('refund', 'refund_reversed')`;
const disputeKinds = sql`${t.kind} in ('dispute_opened', 'dispute_won', 'dispute_lost')`;

/**
 * A payment's sums, in the words the product uses: what the charity keeps of the donation, what
 * the platform keeps of the tip, the fee (and whether it is still the estimate), what went back.
 */
const paymentSums = {
  /** The donation (with any fee cover) and the tip as charged. */
  chargedDonationCents: sumWhere(sql`${t.kind} in ('charge', 'fee_cover')`, t.charityCents),
  chargedTipCents: sumWhere(sql`${t.kind} = 'charge'`, t.platformCents),
  /** Of the donation as charged, what the donor added to cover the card fee (issue 26). */
  feeCoverCents: sumWhere(isFeeCover, t.charityCents),
  donatedCents: sumWhere(moneyKinds, t.charityCents),
  // A dispute's fee is the platform's (its platform part) paid to the processor (its processor
  // part): the two together leave the tip the platform kept.
  tipKeptCents: sumWhere(moneyKinds, sql`${t.platformCents} + ${t.processorCents}`),
  feeCents: sumWhere(isFee, t.processorCents),
  charityFeeCents: sumWhere(isFee, sql`-${t.charityCents}`),
  feeEstimated: sql<number>`coalesce(max(${t.kind} = 'fee' and ${t.estimated}), 0)`,
  feeReported: sql<number>`coalesce(max(${t.kind} = 'fee' and not ${t.estimated}), 0)`,
  refundedCents: sumWhere(refundKinds, sql`-${total}`),
  disputedCents: sumWhere(disputeKinds, sql`-${total}`),
  disputeFeeCents: sumWhere(moneyKinds, t.processorCents),
  disputesOpen: sql<number>`coalesce(sum(${t.kind} = 'dispute_opened') - sum(${t.kind} in ('dispute_won', 'dispute_lost')), 0)`,
  disputesLost: sql<number>`coalesce(sum(${t.kind} = 'dispute_lost'), 0)`,
  disputesWon: sql<number>`coalesce(sum(${t.kind} = 'dispute_won'), 0)`,
};

export type PaymentSums = { donationId: number } & { [K in keyof typeof paymentSums]: number };

/** The sums of each of these payments (a page of a list), by donation id. */
export function sumsOfPayments(db: Db, donationIds: number[]): Map<number, PaymentSums> {
  if (donationIds.length === 0) return new Map();
  const rows = db
    .select({ donationId: sql<number>`${t.donationId}`, ...paymentSums })
    .from(t)
    .where(inArray(t.donationId, donationIds))
    .groupBy(t.donationId)
    .all();
  return new Map(rows.map((row) => [row.donationId, row]));
}

/**
 * Sums over every payment that has rows (the Transactions tab's "all" totals): each payment's sums
 * first, then theirs, so that "fee pending" counts payments.
 */
export function sumsOfAllPayments(db: Db) {
  const aliased = Object.fromEntries(Object.entries(paymentSums).map(([name, field]) => [name, field.as(name)])) as {
    [K in keyof typeof paymentSums]: SQL.Aliased<number>;
  };
  const each = db
    .select({ donationId: t.donationId, ...aliased })
    .from(t)
    .where(sql`${t.donationId} is not null`)
    .groupBy(t.donationId)
    // Payments that were made: a refund told before its payment's success is not one yet.
    .having(sql`max(${t.kind} = 'charge')`)
    .as('each');
  return db
    .select({
      payments: sql<number>`count(*)`,
      donationCents: sql<number>`coalesce(sum(${each.chargedDonationCents}), 0)`,
      tipCents: sql<number>`coalesce(sum(${each.chargedTipCents}), 0)`,
      feeCoverCents: sql<number>`coalesce(sum(${each.feeCoverCents}), 0)`,
      feeCents: sql<number>`coalesce(sum(${each.feeCents}), 0)`,
      feesPending: sql<number>`coalesce(sum(${each.feeEstimated} and not ${each.feeReported}), 0)`,
      refundedCents: sql<number>`coalesce(sum(${each.refundedCents}), 0)`,
      disputedCents: sql<number>`coalesce(sum(${each.disputedCents}), 0)`,
    })
    .from(each)
    .get()!;
}

/** Per charity: what its donations gave (less what went back), its share of the fees, what it was paid. */
export type CharitySums = {
  ein: string;
  donatedCents: number;
  /** Of donatedCents, what donors added to cover the card fee (issue 26), as charged. */
  feeCoverCents: number;
  charityFeeCents: number;
  disbursedCents: number;
};

export function sumsByCharity(db: Db, ein?: string): CharitySums[] {
  return db
    .select({
      ein: sql<string>`${t.charityEin}`,
      donatedCents: sumWhere(moneyKinds, t.charityCents),
      feeCoverCents: sumWhere(isFeeCover, t.charityCents),
      charityFeeCents: sumWhere(isFee, sql`-${t.charityCents}`),
      disbursedCents: sumWhere(sql`${t.kind} = 'disbursement'`, sql`-${t.charityCents}`),
    })
    .from(t)
    .where(ein === undefined ? sql`${t.charityEin} is not null` : eq(t.charityEin, ein))
    .groupBy(t.charityEin)
    .all();
}

/** What a fundraiser has raised: its donations (tips are the platform's), less what went back of them. */
/** Rows that are a fundraiser's money: what its index holds (SQLite uses a partial index only when asked so). */
const notFee = sql`${t.kind} <> 'fee'`;

const raisedBy = preparedQuery((db) =>
  db
    .select({ raised: sumWhere(moneyKinds, t.charityCents) })
    .from(t)
    .where(and(eq(t.fundraiserId, sql.placeholder('fundraiserId')), notFee))
    .prepare(),
);

/** What each of these fundraisers has raised, by id (a page of them: one query). */
export function raisedByFundraisers(db: Db, fundraiserIds: number[]): Map<number, number> {
  if (fundraiserIds.length === 1) {
    const fundraiserId = fundraiserIds[0]!;
    return new Map([[fundraiserId, raisedBy(db).get({ fundraiserId })?.raised ?? 0]]);
  }
  if (fundraiserIds.length === 0) return new Map();
  const rows = db
    .select({ fundraiserId: sql<number>`${t.fundraiserId}`, raised: sumWhere(moneyKinds, t.charityCents) })
    .from(t)
    .where(and(inArray(t.fundraiserId, fundraiserIds), notFee))
    .groupBy(t.fundraiserId)
    .all();
  return new Map(rows.map((row) => [row.fundraiserId, row.raised]));
}

/** The rows of a period, oldest first (the reconciliation with the processor). */
export function rowsBetween(db: Db, from: Date, to: Date, kinds?: JournalKind[]): JournalRow[] {
  return db
    .select()
    .from(t)
    .where(and(gte(t.occurredAt, from), lt(t.occurredAt, to), kinds ? inArray(t.kind, kinds) : undefined))
    .orderBy(asc(t.occurredAt), asc(t.id))
    .all();
}

export function rowsByProviderIds(db: Db, providerIds: string[]): JournalRow[] {
  if (providerIds.length === 0) return [];
  return db.select().from(t).where(inArray(t.providerId, providerIds)).all();
}

/**
 * What moved a fundraiser's total (or every fundraiser's, `fundraiserId` null) since `from`, row by
 * row, oldest first: its money rows' charity cents and when, and whether the row is a charge (a
 * donation made). The insight's series (issue 29) adds them up by day in the site's time zone.
 */
export function fundraiserMoneySince(db: Db, fundraiserId: number | null, from: Date) {
  return db
    .select({
      occurredAt: t.occurredAt,
      charityCents: t.charityCents,
      isCharge: sql<number>`${t.kind} = 'charge'`,
    })
    .from(t)
    .where(
      and(
        fundraiserId === null ? sql`${t.fundraiserId} is not null` : eq(t.fundraiserId, fundraiserId),
        moneyKinds,
        gte(t.occurredAt, from),
      ),
    )
    .orderBy(asc(t.occurredAt))
    .all();
}
