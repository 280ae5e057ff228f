import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { donations, moneyJournal } from '../../server/db/schema';
import { paymentFigures } from '../../server/features/journal/money';
import {
  type JournalPayment,
  recordCharge,
  recordDispute,
  recordFee,
  recordRefund,
  raisedByFundraisers,
  sumsByCharity,
} from '../../server/features/journal/service';

// The money journal's writers on a real SQLite file (issue 23): a payment's events — its charge,
// its fee reported late or never, refunds (some failing), disputes opened and closed, with the
// fee the donor may add to cover the card fee — in any order, some told twice, always add up to
// the figures of what happened (server/features/journal/money.ts), to the cent.

const estimate = (payment: number) => Math.round((payment * 22) / 1000) + 30;
const EIN = '530196605';

type Event =
  | { kind: 'charge' }
  | { kind: 'fee' }
  | { kind: 'refund'; id: string; cents: number; failed: boolean }
  | { kind: 'dispute'; id: string; cents: number; feeCents: number; outcome: 'open' | 'won' | 'lost' };

const payment = fc.record({
  donationCents: fc.integer({ min: 0, max: 200_000 }),
  tipCents: fc.integer({ min: 0, max: 20_000 }),
  feeCoverCents: fc.integer({ min: 0, max: 5_000 }),
  /** Stripe's fee, or null: never reported, so the estimate stands. */
  feeCents: fc.option(fc.integer({ min: 0, max: 10_000 })),
  /** Stripe knew the fee when the payment was fulfilled (else its fee job tells it later). */
  feeAtCharge: fc.boolean(),
  refunds: fc.array(fc.record({ share: fc.double({ min: 0.01, max: 1, noNaN: true }), failed: fc.boolean() }), {
    maxLength: 3,
  }),
  disputes: fc.array(
    fc.record({
      share: fc.double({ min: 0.01, max: 1, noNaN: true }),
      outcome: fc.constantFrom('open' as const, 'won' as const, 'lost' as const),
      feeBack: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  toldTwice: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});

describe('the money journal, event by event', () => {
  it('adds up to the figures of what happened, whatever the order and however often each event is told', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-journal-')), 'journal.db');
    const { db, sqlite } = openDatabase(file);
    let next = 0;
    fc.assert(
      fc.property(payment, (made) => {
        const n = ++next;
        const total = made.donationCents + made.feeCoverCents + made.tipCents;
        fc.pre(total > 0);
        const row = db
          .insert(donations)
          .values({
            fundraiserId: null,
            paymentIntentId: `pi_${n}`,
            email: 'fan@example.org',
            name: 'Fan',
            amountCents: made.donationCents,
            tipCents: made.tipCents,
            charityEin: EIN,
            status: 'succeeded',
          })
          .returning()
          .get();
        const journalPayment: JournalPayment = {
          donationId: row.id,
          paymentIntentId: row.paymentIntentId,
          fundraiserId: n,
          charityEin: `${EIN}-${n}`,
          donationCents: made.donationCents,
          tipCents: made.tipCents,
          feeCoverCents: made.feeCoverCents,
        };
        // What happened: refunds and disputes of parts of the payment (together at most all of it,
        // as Stripe allows), and their events. A refund that failed is told twice: made, then failed.
        const events: Event[] = [{ kind: 'charge' }];
        if (made.feeCents !== null) events.push({ kind: 'fee' });
        let left = total;
        made.refunds.forEach((refund, i) => {
          const cents = Math.min(left, Math.max(1, Math.round(total * refund.share)));
          if (cents <= 0) return;
          left -= refund.failed ? 0 : cents;
          events.push({ kind: 'refund', id: `re_${n}_${i}`, cents, failed: false });
          if (refund.failed) events.push({ kind: 'refund', id: `re_${n}_${i}`, cents, failed: true });
        });
        const disputes = made.disputes.flatMap((dispute, i) => {
          const cents = Math.min(left, Math.max(1, Math.round(total * dispute.share)));
          if (cents <= 0) return [];
          if (dispute.outcome !== 'won') left -= cents;
          const finalFee = dispute.outcome === 'won' && dispute.feeBack ? 0 : 1500;
          events.push({ kind: 'dispute', id: `dp_${n}_${i}`, cents, feeCents: 1500, outcome: 'open' });
          if (dispute.outcome !== 'open') {
            events.push({ kind: 'dispute', id: `dp_${n}_${i}`, cents, feeCents: finalFee, outcome: dispute.outcome });
          }
          return [{ cents, outcome: dispute.outcome, finalFee }];
        });
        const order = events.map((_, i) => i).sort((a, b) => made.order[a]! - made.order[b]! || a - b);
        const at = new Date();
        const tell = (event: Event) =>
          db.transaction(() => {
            const reported = made.feeCents === null ? null : { providerId: `txn_${n}`, feeCents: made.feeCents };
            if (event.kind === 'charge') recordCharge(db, journalPayment, made.feeAtCharge ? reported : null, at);
            else if (event.kind === 'fee')
              recordFee(db, journalPayment, { providerId: `txn_${n}`, feeCents: made.feeCents! }, at);
            else if (event.kind === 'refund') {
              recordRefund(db, journalPayment, { id: event.id, amountCents: event.cents, failed: event.failed }, at);
            } else {
              const { id, cents, feeCents, outcome } = event;
              recordDispute(db, journalPayment, { id, amountCents: cents, feeCents, outcome }, at);
            }
          });
        for (const i of order) {
          tell(events[i]!);
          if (made.toldTwice[i]) tell(events[i]!);
        }

        const rows = db.select().from(moneyJournal).where(eq(moneyJournal.donationId, row.id)).all();
        const takenBack =
          events
            .filter((event): event is Extract<Event, { kind: 'refund' }> => event.kind === 'refund' && !event.failed)
            .filter(
              (event) => !events.some((other) => other.kind === 'refund' && other.id === event.id && other.failed),
            )
            .reduce((sum, event) => sum + event.cents, 0) +
          disputes.filter((dispute) => dispute.outcome !== 'won').reduce((sum, dispute) => sum + dispute.cents, 0);
        const figures = paymentFigures(journalPayment, {
          charged: true,
          feeCents: made.feeCents ?? estimate(total),
          takenBackCents: takenBack,
          disputeFeeCents: disputes.reduce((sum, dispute) => sum + dispute.finalFee, 0),
        });
        const sum = (kinds: (kind: string) => boolean, part: 'charityCents' | 'platformCents' | 'processorCents') =>
          rows.filter((one) => kinds(one.kind)).reduce((cents, one) => cents + one[part], 0);
        const isFee = (kind: string) => kind === 'fee';
        const isMoney = (kind: string) => kind !== 'fee';
        expect({
          charity: sum(isMoney, 'charityCents'),
          platform: sum(isMoney, 'platformCents'),
          processor: sum(isMoney, 'processorCents'),
        }).toEqual({
          charity: figures.money.charityCents,
          platform: figures.money.platformCents,
          processor: figures.money.processorCents,
        });
        expect({
          charity: sum(isFee, 'charityCents'),
          platform: sum(isFee, 'platformCents'),
          processor: sum(isFee, 'processorCents'),
        }).toEqual({
          charity: figures.fee.charityCents,
          platform: figures.fee.platformCents,
          processor: figures.fee.processorCents,
        });
        // The charge and the fee cover are what the donor paid; each provider object once.
        expect(
          rows.filter((one) => one.kind === 'charge' || one.kind === 'fee_cover').map((one) => one.charityCents),
        ).toEqual(made.feeCoverCents > 0 ? [made.donationCents, made.feeCoverCents] : [made.donationCents]);
        expect(new Set(rows.map((one) => one.providerId)).size).toBe(rows.length);
        // The sums the product reads agree: the fundraiser's total and the charity's balance.
        expect(raisedByFundraisers(db, [n]).get(n) ?? 0).toBe(figures.money.charityCents);
        const charity = sumsByCharity(db, `${EIN}-${n}`)[0]!;
        expect(charity.donatedCents - charity.charityFeeCents).toBe(
          figures.money.charityCents + figures.fee.charityCents,
        );
      }),
      { numRuns: 200 },
    );
    sqlite.close();
    // Two hundred payments, each event in its own committed transaction on a real file.
  }, 120_000);
});
