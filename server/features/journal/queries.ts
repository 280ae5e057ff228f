import { and, asc, eq, gt, gte, inArray, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { fundraisers, type JournalKind, moneyJournal } from '../../db/schema';
import { siteDayIndex, type SiteDays } from '../../db/site-days';

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

type DayMoney = { day: number; raisedCents: number; donations: number; tipsCents: number; paidOutCents: number };

/**
 * A fundraiser's money (or the whole site's, `fundraiserId` null) per day of `days` (issue 29's
 * insight): what the charity keeps after refunds and disputes, and the payments made; the site's
 * adds the tips and the payouts. Day -1 is everything before the first day (where a cumulative
 * line starts); the site's day `dates.length` is everything after the last.
 */
export function moneyByDay(db: Db, fundraiserId: number | null, days: SiteDays): DayMoney[] {
  if (fundraiserId !== null) return fundraiserMoneyByDay(db, fundraiserId, days);
  // The site's rows have no index by date (each one would cost every fulfilment a page): one pass
  // over the table, each row's day worked out by siteDayIndex.
  const day = siteDayIndex(t.occurredAt, days);
  return db
    .select({
      day,
      raisedCents: sumWhere(moneyKinds, t.charityCents),
      donations: sql<number>`coalesce(sum(${t.kind} = 'charge'), 0)`,
      tipsCents: sumWhere(moneyKinds, sql`${t.platformCents} + ${t.processorCents}`),
      paidOutCents: sumWhere(sql`${t.kind} = 'disbursement'`, sql`-${t.charityCents}`),
    })
    .from(t)
    .where(notFee)
    .groupBy(day)
    .all();
}

/**
 * A fundraiser's days are ranges of its index (fundraiser, date): one sum per day, each reading
 * only that day's entries, in order, with nothing to sort (`npm run bench`, insight).
 */
function fundraiserMoneyByDay(db: Db, fundraiserId: number, days: SiteDays): DayMoney[] {
  // A fundraiser's rows other than fees are its money (a disbursement is a charity's and names no
  // fundraiser; said again here, as cheap as it is): plain sums, where a CASE over the list of
  // money kinds would cost each row three times as much.
  const itsMoney = and(eq(t.fundraiserId, fundraiserId), notFee, sql`${t.kind} <> 'disbursement'`);
  // Before the first day only the sum matters (where the cumulative line starts).
  const before = db
    .select({ raisedCents: sql<number>`coalesce(sum(${t.charityCents}), 0)` })
    .from(t)
    .where(and(itsMoney, lt(t.occurredAt, new Date(days.starts[0]!))))
    .get();
  // Each day's [from, to) in ms.
  const ranges = days.dates.map((_, i) => [days.starts[i]!, days.starts[i + 1]!]);
  const rows = db.all<{ i: number; sums: string }>(sql`
    select d.key as i, (
      select json_array(coalesce(sum(${t.charityCents}), 0), count(*) filter (where ${t.kind} = 'charge'), count(*))
      from ${t}
      where ${itsMoney} and ${t.occurredAt} >= d.value ->> 0 and ${t.occurredAt} < d.value ->> 1
    ) as sums
    from json_each(${JSON.stringify(ranges)}) as d`);
  const found = rows.flatMap(({ i, sums }) => {
    const [raisedCents, donations, rowCount] = JSON.parse(sums) as [number, number, number];
    // A day with rows is a day, whatever they add up to (as the site's GROUP BY gives it).
    return rowCount === 0 ? [] : [{ day: i, raisedCents, donations, tipsCents: 0, paidOutCents: 0 }];
  });
  const raisedBefore = before?.raisedCents ?? 0;
  return raisedBefore === 0
    ? found
    : [{ day: -1, raisedCents: raisedBefore, donations: 0, tipsCents: 0, paidOutCents: 0 }, ...found];
}

/** The newest row's id (0 for none): rows are only added, and their ids only grow (AUTOINCREMENT). */
export function latestJournalId(db: Db): number {
  return (
    db
      .select({ id: sql<number | null>`max(${t.id})` })
      .from(t)
      .get()?.id ?? 0
  );
}

/**
 * The money rows added after row `afterId` (a fundraiser's, or the site's with its payouts when
 * `fundraiserId` is null), oldest first, at most `limit`: what changed since a sum was made (issue
 * 29's insight keeps its days and adds what came since).
 */
export function moneyRowsAfter(db: Db, fundraiserId: number | null, afterId: number, limit: number) {
  return db
    .select({
      occurredAt: t.occurredAt,
      raisedCents: sql<number>`case when ${moneyKinds} then ${t.charityCents} else 0 end`,
      donations: sql<number>`${t.kind} = 'charge'`,
      tipsCents: sql<number>`case when ${moneyKinds} then ${t.platformCents} + ${t.processorCents} else 0 end`,
      paidOutCents: sql<number>`case when ${t.kind} = 'disbursement' then -${t.charityCents} else 0 end`,
    })
    .from(t)
    .where(
      and(
        gt(t.id, afterId),
        // "+" keeps SQLite off the fundraiser's index (all its rows) and on the ids (the few new ones).
        fundraiserId === null ? undefined : sql`+${t.fundraiserId} = ${fundraiserId}`,
        notFee,
      ),
    )
    .orderBy(asc(t.id))
    .limit(limit)
    .all();
}

/** When the first and the last money moved: a fundraiser's (its index's ends), or anyone's (a scan). */
export function moneySpan(db: Db, fundraiserId: number | null): { first: Date; last: Date } | undefined {
  const row = db
    .select({ first: sql<number | null>`min(${t.occurredAt})`, last: sql<number | null>`max(${t.occurredAt})` })
    .from(t)
    .where(and(fundraiserId === null ? undefined : eq(t.fundraiserId, fundraiserId), notFee))
    .get();
  return row?.first == null || row.last == null ? undefined : { first: new Date(row.first), last: new Date(row.last) };
}

/**
 * The fundraisers that raised most between two moments (after refunds), and their payments: each
 * fundraiser's rows of the period are one range of its index (fundraiser, date).
 */
export function topFundraisersBetween(db: Db, from: Date, to: Date, limit: number) {
  return db.all<{ fundraiserId: number; raisedCents: number; donations: number }>(sql`
    select f.id as fundraiserId, sum(${t.charityCents}) as raisedCents,
      count(*) filter (where ${t.kind} = 'charge') as donations
    from ${fundraisers} f join ${t} on ${t.fundraiserId} = f.id
    where ${notFee} and ${t.kind} <> 'disbursement'
      and ${t.occurredAt} >= ${from.getTime()} and ${t.occurredAt} < ${to.getTime()}
    group by f.id
    order by raisedCents desc, f.id
    limit ${limit}`);
}
