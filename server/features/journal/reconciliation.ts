import type { RECONCILIATION_KINDS, Reconciliation } from '../../../shared/answers/admin-money';
import type { ReconciliationParams } from '../../../shared/schemas/admin-money';
import { siteCalendarDate, startOfSiteDay } from '../../../shared/site-dates';
import type { Deps } from '../../deps';
import { unavailable } from '../../errors';
import { type CsvValue, csvText } from '../../infra/csv';
import type { BalanceTransaction } from '../../infra/payments/provider';
import * as queries from './queries';
import type { JournalRow } from './queries';

// The money journal against the processor's own record of its balance (issue 23; DESIGN.md
// "Contract details for wave 3", reconciliation): Stripe's balance transactions, or the test
// provider's paid intents. Each movement is compared by the provider's object id: a payment's
// charge and fee, a refund, a failed refund, a dispute and its fee. A movement is in the period
// when either side dated it there; both sides are read two days wider, so one dated a moment
// apart across midnight is compared whole rather than found missing on both days.

type Kind = (typeof RECONCILIATION_KINDS)[number];
type Side = { cents: number; at: number };
type Item = { providerId: string; kind: Kind; ours?: Side; theirs?: Side };

const MARGIN_MS = 2 * 24 * 60 * 60 * 1000;

function add(
  items: Map<string, Item>,
  side: 'ours' | 'theirs',
  kind: Kind,
  providerId: string,
  cents: number,
  at: Date,
) {
  const key = `${kind} ${providerId}`;
  const item = items.get(key) ?? { providerId, kind };
  const before = item[side];
  item[side] = { cents: (before?.cents ?? 0) + cents, at: Math.min(before?.at ?? Infinity, at.getTime()) };
  items.set(key, item);
}

const totalOf = (row: JournalRow) => row.charityCents + row.platformCents + row.processorCents;

/** Our side: each payment's rows, named by the processor's objects they record. */
function addOurs(items: Map<string, Item>, rows: JournalRow[]) {
  const byDonation = new Map<number, JournalRow[]>();
  for (const row of rows) {
    if (row.donationId === null) continue;
    byDonation.set(row.donationId, [...(byDonation.get(row.donationId) ?? []), row]);
  }
  for (const payment of byDonation.values()) {
    const charge = payment.find((row) => row.kind === 'charge');
    for (const row of payment) {
      const object = row.providerId.split(':')[0]!;
      if (row.kind === 'fee') {
        // A fee row moves the processor's part only when it is the fee itself (a share moving
        // between charity and platform leaves the processor's part at 0).
        if (charge && row.processorCents !== 0)
          add(items, 'ours', 'fee', charge.providerId, row.processorCents, charge.occurredAt);
      } else if (row.kind === 'charge' || row.kind === 'fee_cover') {
        if (charge) add(items, 'ours', 'charge', charge.providerId, totalOf(row), charge.occurredAt);
      } else if (row.kind === 'refund') {
        add(items, 'ours', 'refund', object, totalOf(row), row.occurredAt);
      } else if (row.kind === 'refund_reversed') {
        add(items, 'ours', 'refund_failure', object, totalOf(row), row.occurredAt);
      } else if (row.kind.startsWith('dispute_')) {
        add(items, 'ours', 'dispute', object, totalOf(row), row.occurredAt);
        if (row.processorCents !== 0) add(items, 'ours', 'dispute_fee', object, row.processorCents, row.occurredAt);
      }
    }
  }
}

/** Their side: each balance transaction, named the same way. */
function addTheirs(items: Map<string, Item>, transactions: BalanceTransaction[]) {
  for (const transaction of transactions) {
    const { sourceId, createdAt } = transaction;
    if (transaction.type === 'charge') {
      add(items, 'theirs', 'charge', sourceId, transaction.amountCents, createdAt);
      add(items, 'theirs', 'fee', sourceId, transaction.feeCents, createdAt);
    } else if (transaction.type === 'dispute') {
      add(items, 'theirs', 'dispute', sourceId, transaction.amountCents, createdAt);
      if (transaction.feeCents !== 0) add(items, 'theirs', 'dispute_fee', sourceId, transaction.feeCents, createdAt);
    } else {
      add(items, 'theirs', transaction.type, sourceId, transaction.amountCents, createdAt);
    }
  }
}

/** GET /api/admin/reconciliation: the period's movements, the differences first (oldest first), and how many matched. */
export async function reconcile(deps: Deps, period: ReconciliationParams): Promise<Reconciliation> {
  const timeZone = deps.config.timeZone;
  const from = startOfSiteDay(period.from, timeZone).getTime();
  const to = startOfSiteDay(nextDay(period.to), timeZone).getTime();
  const wideFrom = new Date(from - MARGIN_MS);
  const wideTo = new Date(to + MARGIN_MS);
  let transactions: BalanceTransaction[];
  try {
    transactions = await deps.payments.balanceTransactions(wideFrom, wideTo);
  } catch (error) {
    deps.logger.warn({ err: error }, 'the reconciliation could not read the processor’s balance transactions');
    throw unavailable('The payment processor could not be reached. Please try again in a minute.');
  }
  // Every row of the payments with a row in the window: a fee reported days after its charge
  // belongs with the charge.
  const inWindow = queries.rowsBetween(deps.db, wideFrom, wideTo);
  const donationIds = [...new Set(inWindow.flatMap((row) => (row.donationId === null ? [] : [row.donationId])))];
  const items = new Map<string, Item>();
  addOurs(items, queries.rowsOfDonations(deps.db, donationIds));
  addTheirs(items, transactions);

  const inPeriod = (side?: Side) => side !== undefined && side.at >= from && side.at < to;
  let matched = 0;
  const differences: Reconciliation['differences'] = [];
  for (const item of items.values()) {
    if (!inPeriod(item.ours) && !inPeriod(item.theirs)) continue;
    const oursCents = item.ours?.cents ?? 0;
    const theirsCents = item.theirs?.cents ?? 0;
    if (item.ours && item.theirs && oursCents === theirsCents) {
      matched++;
      continue;
    }
    const at = Math.min(item.ours?.at ?? Infinity, item.theirs?.at ?? Infinity);
    differences.push({
      providerId: item.providerId,
      kind: item.kind,
      oursCents,
      theirsCents,
      date: siteCalendarDate(at, timeZone),
    });
  }
  differences.sort((a, b) => a.date.localeCompare(b.date) || a.providerId.localeCompare(b.providerId));
  return { from: period.from, to: period.to, provider: deps.payments.kind, matched, differences };
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export const RECONCILIATION_CSV_HEADER = [
  'date',
  'providerId',
  'kind',
  'oursCents',
  'theirsCents',
  'differenceCents',
] as const;

/** GET /api/admin/reconciliation.csv: the differences as CSV (what an accountant works through). */
export async function reconciliationCsv(deps: Deps, period: ReconciliationParams) {
  const { differences } = await reconcile(deps, period);
  const rows: CsvValue[][] = differences.map((difference) => [
    difference.date,
    difference.providerId,
    difference.kind,
    difference.oursCents,
    difference.theirsCents,
    difference.oursCents - difference.theirsCents,
  ]);
  return csvText(RECONCILIATION_CSV_HEADER, rows);
}
