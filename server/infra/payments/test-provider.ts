import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { preparedQuery } from '../../db/prepared';
import type { Db } from '../../db/client';
import { testPaymentIntents } from '../../db/schema';
import { type CardDetails, cardProblem } from '../../../shared/card-checks';
import { randomToken } from '../security/tokens';
import {
  type BalanceTransaction,
  estimatedFeeCents,
  type IntentState,
  type PaymentProvider,
  type ReportedFee,
} from './provider';

// The built-in test payment provider (DESIGN.md section 2): no account, no network, the same
// intents and the same fulfilment as Stripe. Intents live in the database, so a restart keeps
// them. 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined and the intent stays payable.
// Like Stripe, it first checks the card itself (the Luhn check, the expiry, the security code)
// and refuses a bad one in Stripe's words without touching the intent.

const DECLINED_CARD = '4000000000000002';

export type TestConfirmOutcome =
  | { outcome: 'succeeded'; paymentIntentId: string; fee: ReportedFee }
  | { outcome: 'declined'; message: string }
  | { outcome: 'already-paid' }
  | { outcome: 'unknown' };

export type TestProvider = PaymentProvider & {
  kind: 'test';
  /**
   * Pays the intent of `clientSecret` with a test card, on the database's connection: inside the
   * caller's transaction when there is one.
   */
  confirm(clientSecret: string, card: CardDetails, now?: Date): TestConfirmOutcome;
  /** The intent of a client secret, as the donate page asks when the donor comes back. */
  findByClientSecret(clientSecret: string): typeof testPaymentIntents.$inferSelect | undefined;
};

/** Asked on every fulfilment (is it paid?): built and prepared once. */
const intentById = preparedQuery((db) =>
  db
    .select()
    .from(testPaymentIntents)
    .where(eq(testPaymentIntents.id, sql.placeholder('id')))
    .prepare(),
);

export function testProvider(db: Db): TestProvider {
  return {
    kind: 'test',
    publicConfig: { provider: 'test' },
    async createIntent(amountCents) {
      const id = `tpi_${randomToken().slice(0, 24)}`;
      const clientSecret = `${id}_secret_${randomToken()}`;
      db.insert(testPaymentIntents).values({ id, clientSecret, amountCents }).run();
      return { id, clientSecret };
    },
    async retrieveIntent(id): Promise<IntentState> {
      const intent = intentById(db).get({ id });
      if (!intent) return { status: 'other' };
      if (intent.status === 'succeeded') return { status: 'succeeded', fee: feeOf(intent) };
      return { status: 'requires_payment_method' };
    },
    async balanceTransactions(from, to) {
      return db
        .select()
        .from(testPaymentIntents)
        .where(
          and(
            eq(testPaymentIntents.status, 'succeeded'),
            gte(testPaymentIntents.updatedAt, from),
            lt(testPaymentIntents.updatedAt, to),
          ),
        )
        .orderBy(asc(testPaymentIntents.updatedAt))
        .all()
        .map((intent): BalanceTransaction => ({
          id: feeOf(intent).providerId,
          type: 'charge',
          sourceId: intent.id,
          amountCents: intent.amountCents,
          feeCents: feeOf(intent).feeCents,
          createdAt: intent.updatedAt,
        }));
    },
    confirm(clientSecret, card, now = new Date()) {
      const problem = cardProblem(card, now);
      if (problem) return { outcome: 'declined', message: problem.message };
      const intent = db
        .select()
        .from(testPaymentIntents)
        .where(eq(testPaymentIntents.clientSecret, clientSecret))
        .get();
      if (!intent) return { outcome: 'unknown' };
      if (intent.status === 'succeeded') return { outcome: 'already-paid' };
      if (card.cardNumber.replace(/\s+/g, '') === DECLINED_CARD) {
        const message = 'Your card was declined.';
        db.update(testPaymentIntents)
          .set({ lastError: message, updatedAt: new Date() })
          .where(eq(testPaymentIntents.id, intent.id))
          .run();
        return { outcome: 'declined', message };
      }
      const paid = db
        .update(testPaymentIntents)
        .set({ status: 'succeeded', lastError: null, updatedAt: new Date() })
        .where(and(eq(testPaymentIntents.id, intent.id), eq(testPaymentIntents.status, 'requires_payment_method')))
        .run();
      // Two confirmations at once: the one that changed the row paid it.
      return paid.changes === 1
        ? { outcome: 'succeeded', paymentIntentId: intent.id, fee: feeOf(intent) }
        : { outcome: 'already-paid' };
    },
    findByClientSecret(clientSecret) {
      return db.select().from(testPaymentIntents).where(eq(testPaymentIntents.clientSecret, clientSecret)).get();
    },
  };
}

/** A test payment's fee: its own "balance transaction", at the estimated rate (DESIGN.md section 4). */
function feeOf(intent: { id: string; amountCents: number }): ReportedFee {
  return { providerId: `txn_${intent.id}`, feeCents: estimatedFeeCents(intent.amountCents) };
}

/**
 * A payment made outside the card form (the demo content's), kept as a paid test intent like any
 * other, so the test provider's records (the reconciliation's "theirs") hold it too.
 */
export function recordPaidTestIntent(db: Db, amountCents: number, at: Date): { id: string; fee: ReportedFee } {
  const id = `tpi_${randomToken().slice(0, 24)}`;
  db.insert(testPaymentIntents)
    .values({
      id,
      clientSecret: `${id}_secret_${randomToken()}`,
      amountCents,
      status: 'succeeded',
      createdAt: at,
      updatedAt: at,
    })
    .run();
  return { id, fee: feeOf({ id, amountCents }) };
}
