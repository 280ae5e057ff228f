import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disbursements, donations, moneyJournal, purchases } from '../../server/db/schema';
import {
  adminTransactionsSchema,
  disbursementHistorySchema,
  disbursementSummariesSchema,
  feeChecksAnswerSchema,
  initializeResponseSchema,
  ledgerSchema,
  reconciliationSchema,
} from '../../shared/answers/admin-money';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { siteCalendarDate } from '../../shared/site-dates';
import { donate } from '../fixtures/donations';
import { FAKE_DISPUTE_FEE } from '../fixtures/fake-stripe';
import { moneyOf } from '../fixtures/money-journal';
import { useStripeServer } from '../fixtures/stripe-server';
import { adminClient, fieldErrors, verifiedUser } from '../fixtures/test-server';
import { createFundraiser } from '../fixtures/fundraisers';
import { useTestServer } from '../fixtures/use-test-server';

// The money journal after the sale (issue 23): disputes, refunds that fail, fees Stripe is late
// with or never reports, overpaid charities, stale and failed disbursements, and the
// reconciliation with Stripe's balance transactions, each driven through the real stripe SDK
// against the fake Stripe (tests/fixtures/fake-stripe.ts), each event twice and at once.

const RED_CROSS = '530196605';
const estimate = (payment: number) => Math.round((payment * 22) / 1000) + 30;
/** The site's calendar day of a moment (the test servers' zone, the default). */
const dayOf = (moment: number | Date) => siteCalendarDate(moment, 'America/Los_Angeles');

describe('money after the sale (Stripe path)', () => {
  const stripe = useStripeServer('after-sale-owner@example.org');
  /** The site's day before any of these payments: the site's midnight may come while they run. */
  const firstDay = dayOf(Date.now());
  let counter = 0;
  const email = (label: string) => `${label}-${++counter}@example.org`;

  async function summary(ein = RED_CROSS) {
    const answer = await stripe.admin.get('/api/admin/disbursements');
    expect(answer.status, answer.text).toBe(200);
    const found = disbursementSummariesSchema.parse(answer.json).results.find((charity) => charity.ein === ein);
    // A charity nobody has given to yet has no row: all its figures are 0.
    return found ?? { donatedCents: 0, afterFeesDonatedCents: 0, disbursedCents: 0, outstandingCents: 0 };
  }
  async function ledger() {
    return ledgerSchema.parse((await stripe.server.client().get('/api/ledger')).json);
  }
  async function totalRaised() {
    const answer = await stripe.server.client().get(`/api/fundraisers/${stripe.fundraiserId}`);
    return fundraiserSchema.parse(answer.json).totalRaised ?? 0;
  }
  async function adminRow(paymentIntentId: string) {
    const answer = await stripe.admin.get('/api/admin/transactions?page_size=100');
    const id = donationOf(paymentIntentId).id;
    return adminTransactionsSchema.parse(answer.json).results.find((row) => row.id === id)!;
  }
  function donationOf(paymentIntentId: string) {
    return stripe.server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
  }
  function albumKept(paymentIntentId: string) {
    const purchase = stripe.server.db
      .select()
      .from(purchases)
      .where(eq(purchases.donationId, donationOf(paymentIntentId).id))
      .get()!;
    return purchase.revokedAt === null;
  }
  function rowsOf(paymentIntentId: string) {
    return stripe.server.db
      .select()
      .from(moneyJournal)
      .where(eq(moneyJournal.donationId, donationOf(paymentIntentId).id))
      .all();
  }

  it('takes a disputed payment out of its charity balance at once, puts it back when won, and counts each event once', async () => {
    const before = await summary();
    const raisedBefore = await totalRaised();
    // $40.00 and a $10.00 tip; Stripe's fee $1.75, of which the charity carries 4/5: $1.40.
    const intent = await stripe.pay({ email: email('disputed'), donationCents: 4000, tipCents: 1000, feeCents: 175 });
    const paid = await summary();
    expect(paid.outstandingCents - before.outstandingCents).toBe(4000 - 140);

    const dispute = stripe.fake.dispute(intent);
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.dispute.created', dispute.id));
    // Another event about the same dispute (another id) adds nothing either.
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.dispute.funds_withdrawn', dispute.id));
    // The whole payment is held back: the charity has nothing of it, and no share of the fee.
    expect(await summary()).toMatchObject({
      donatedCents: before.donatedCents,
      afterFeesDonatedCents: before.afterFeesDonatedCents,
      outstandingCents: before.outstandingCents,
    });
    expect(await totalRaised()).toBe(raisedBefore);
    // The album stays while the dispute is open: the fan may yet lose it.
    expect(albumKept(intent)).toBe(true);
    expect(await adminRow(intent)).toMatchObject({ status: 'disputed', disputedCents: 5000, refundedCents: 0 });
    expect(rowsOf(intent).filter((row) => row.kind === 'dispute_opened')).toHaveLength(1);
    // Stripe's dispute fee is the platform's, paid to the processor.
    expect(moneyOf(stripe.server.db, intent)).toMatchObject({ disputedCents: 5000, donatedCents: 0, tipKeptCents: 0 });
    expect(rowsOf(intent).find((row) => row.kind === 'dispute_opened')).toMatchObject({
      processorCents: FAKE_DISPUTE_FEE,
    });

    stripe.fake.closeDispute(dispute.id, 'won');
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.dispute.closed', dispute.id));
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.dispute.closed', dispute.id));
    expect(await summary()).toMatchObject({ outstandingCents: paid.outstandingCents });
    expect(await totalRaised()).toBe(raisedBefore + 4000);
    expect(await adminRow(intent)).toMatchObject({ status: 'dispute_won', disputedCents: 0 });
    expect(
      rowsOf(intent)
        .filter((row) => row.kind.startsWith('dispute_'))
        .map((row) => row.kind),
    ).toEqual(['dispute_opened', 'dispute_won']);
  });

  it('keeps a lost dispute out and takes the album away, whatever order its events come in', async () => {
    const before = await summary();
    const intent = await stripe.pay({ email: email('lost'), donationCents: 2000, tipCents: 0, feeCents: 74 });
    // An older API version leaves the dispute's payment intent out: the server asks for the charge.
    const dispute = stripe.fake.dispute(intent, undefined, { withoutPaymentIntent: true });
    const created = stripe.fake.event('charge.dispute.created', dispute.id);
    stripe.fake.closeDispute(dispute.id, 'lost');
    // The close comes first: the dispute is opened and closed by it, and the late opening adds nothing.
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.dispute.closed', dispute.id));
    await stripe.deliverTwiceAtOnce(created);
    expect(await summary()).toMatchObject({ outstandingCents: before.outstandingCents });
    expect(donationOf(intent).status).toBe('refunded');
    expect(albumKept(intent)).toBe(false);
    expect(await adminRow(intent)).toMatchObject({ status: 'dispute_lost', disputedCents: 2000, feeCents: 74 });
    expect(
      rowsOf(intent)
        .filter((row) => row.kind.startsWith('dispute_'))
        .map((row) => row.kind),
    ).toEqual(['dispute_opened', 'dispute_lost']);
  });

  it('reverses a refund that failed and gives the album back, however often it is told', async () => {
    const before = await summary();
    const intent = await stripe.pay({
      email: email('failed-refund'),
      donationCents: 3000,
      tipCents: 300,
      feeCents: 103,
    });
    const paid = await summary();
    stripe.fake.refund(intent);
    const refunded = stripe.fake.event('charge.refunded', intent);
    await stripe.deliverTwiceAtOnce(refunded);
    expect(donationOf(intent).status).toBe('refunded');
    expect(albumKept(intent)).toBe(false);
    expect(await summary()).toMatchObject({ outstandingCents: before.outstandingCents });

    // The bank could not pay it back: Stripe reverses the refund, and so does the journal.
    const [refund] = stripe.fake.refundsOf(intent);
    stripe.fake.failRefund(refund!.id);
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.refund.updated', refund!.id));
    await stripe.deliverTwiceAtOnce(stripe.fake.event('refund.failed', refund!.id));
    // The charge's own event, late: it lists the refund as failed now, which changes nothing.
    await stripe.deliverTwiceAtOnce(refunded);
    expect(donationOf(intent).status).toBe('succeeded');
    expect(albumKept(intent)).toBe(true);
    expect(await summary()).toMatchObject({ outstandingCents: paid.outstandingCents });
    expect(await adminRow(intent)).toMatchObject({ status: 'paid', refundedCents: 0 });
    expect(
      rowsOf(intent)
        .filter((row) => row.kind.startsWith('refund'))
        .map((row) => row.kind),
    ).toEqual(['refund', 'refund_reversed']);
  });

  it("counts a refund told by its own event, and reads the refunds a charge's event carries without asking", async () => {
    const intent = await stripe.pay({
      email: email('refund-events'),
      donationCents: 4000,
      tipCents: 1000,
      feeCents: 175,
    });
    stripe.fake.refund(intent, 500);
    await stripe.deliverTwiceAtOnce(stripe.fake.event('refund.created', stripe.fake.refundsOf(intent)[0]!.id));
    expect(moneyOf(stripe.server.db, intent)).toMatchObject({ refundedCents: 500, charityBackCents: 400 });
    stripe.fake.refund(intent, 700);
    const asked = () => stripe.fake.requests.filter((request) => request.path === '/v1/refunds').length;
    const askedBefore = asked();
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.refunded', intent, { withRefunds: true }));
    expect(asked()).toBe(askedBefore);
    expect(moneyOf(stripe.server.db, intent)).toMatchObject({ refundedCents: 1200, charityBackCents: 960 });
    expect(await adminRow(intent)).toMatchObject({ status: 'partly_refunded', refundedCents: 1200 });
  });

  it('shows a charity paid before a refund as overpaid, never as owed, and keeps it out of what is still to be paid', async () => {
    const intent = await stripe.pay({ email: email('clawback'), donationCents: 5000, tipCents: 0, feeCents: 140 });
    const owed = await summary();
    expect(owed.outstandingCents).toBeGreaterThan(0);
    // Everything owed is paid out…
    const paidOut = await stripe.admin.post('/api/admin/disbursements', {
      json: {
        ein: RED_CROSS,
        amountCents: owed.outstandingCents,
        notes: 'Wire',
        charityName: 'x',
        finalizedAt: siteCalendarDate(Date.now(), 'America/Los_Angeles'),
      },
    });
    expect(paidOut.status, paidOut.text).toBe(201);
    // …and then the payment is refunded: the charity was paid $48.60 it did not keep.
    stripe.fake.refund(intent);
    await stripe.deliverTwiceAtOnce(stripe.fake.event('charge.refunded', intent));
    const overpaid = await summary();
    expect(overpaid.outstandingCents).toBe(-(5000 - 140));
    // Nothing to disburse; the ledger's "still to be paid" adds what is owed, never this.
    const refused = await stripe.admin.post('/api/admin/disbursement/initialize', {
      json: { ein: RED_CROSS, amountCents: 1 },
    });
    expect(refused.json).toMatchObject({ code: 'INCORRECT_DISBURSEMENT_AMOUNT', outstandingAmountCents: 0 });
    const { results, totals } = await ledger();
    expect(results.find((entry) => entry.ein === RED_CROSS)!.outstandingCents).toBe(-(5000 - 140));
    const positive = results.reduce((sum, entry) => sum + Math.max(entry.outstandingCents, 0), 0);
    const negative = results.reduce((sum, entry) => sum + Math.max(-entry.outstandingCents, 0), 0);
    expect(totals).toMatchObject({ outstandingCents: positive, clawbackCents: negative });
    expect(totals.clawbackCents).toBeGreaterThanOrEqual(5000 - 140);
    // The next donation settles the overpayment first.
    await stripe.pay({ email: email('after-clawback'), donationCents: 6000, tipCents: 0, feeCents: 162 });
    expect((await summary()).outstandingCents).toBe(-(5000 - 140) + 6000 - 162);
  });

  it('counts a fee Stripe never reports at the estimate, says so once the job gives up, and asks again on request', async () => {
    const intent = await stripe.pay({ email: email('never-told'), donationCents: 2500, tipCents: 0, feeCents: null });
    expect(moneyOf(stripe.server.db, intent)).toMatchObject({ feeCents: estimate(2500), feePending: true });
    expect(await adminRow(intent)).toMatchObject({ feeCents: estimate(2500), feeStatus: 'pending' });
    // Every attempt finds Stripe without the fee, until the job gives up.
    await stripe.server.jobs.drain({ skipBackoff: true });
    const list = adminTransactionsSchema.parse((await stripe.admin.get('/api/admin/transactions?page_size=100')).json);
    expect(list.feesUnreported).toBe(1);
    expect(list.results.find((row) => row.id === donationOf(intent).id)).toMatchObject({
      feeCents: estimate(2500),
      feeStatus: 'unreported',
    });
    // It still counts in its charity's balance, at the estimate: never dropped.
    expect(moneyOf(stripe.server.db, intent)).toMatchObject({ donatedCents: 2500, charityFeeCents: estimate(2500) });

    const asked = await stripe.admin.post('/api/admin/transactions/fee-checks', { json: {} });
    expect(feeChecksAnswerSchema.parse(asked.json)).toEqual({ asked: 1 });
    expect(await adminRow(intent)).toMatchObject({ feeStatus: 'pending' });
    stripe.fake.settle(intent, 81);
    await stripe.server.jobs.drain({ skipBackoff: true });
    expect(await adminRow(intent)).toMatchObject({ feeCents: 81, feeStatus: 'known' });
    expect(adminTransactionsSchema.parse((await stripe.admin.get('/api/admin/transactions')).json).feesUnreported).toBe(
      0,
    );
  });

  it("matches the journal with Stripe's balance transactions movement by movement, and lists what differs first", async () => {
    // From the day the first payment above was made to today, as the site's calendar has them.
    const reconcile = async (from = firstDay, to = dayOf(Date.now())) => {
      const answer = await stripe.admin.get(`/api/admin/reconciliation?from=${from}&to=${to}`);
      expect(answer.status, answer.text).toBe(200);
      return reconciliationSchema.parse(answer.json);
    };
    // Everything above, disputes won and lost and a refund that failed included, agrees.
    const agreed = await reconcile();
    expect(agreed.differences).toEqual([]);
    expect(agreed.matched).toBeGreaterThan(10);
    expect(agreed.provider).toBe('stripe');

    // A refund made in Stripe's dashboard whose event never came, and a charge Stripe has not
    // settled yet: both show, with what each side has.
    const refunded = await stripe.pay({
      email: email('silent-refund'),
      donationCents: 1000,
      tipCents: 0,
      feeCents: 52,
    });
    stripe.fake.refund(refunded, 100);
    const unsettled = await stripe.pay({ email: email('unsettled'), donationCents: 1500, tipCents: 0, feeCents: null });
    const [refund] = stripe.fake.refundsOf(refunded);
    // Each difference is dated the site's day of the side that has it: Stripe's refund, our charge.
    const refundDay = dayOf(stripe.fake.balance.find((move) => move.source === refund!.id)!.created * 1000);
    const chargeDay = dayOf(rowsOf(unsettled).find((row) => row.kind === 'charge')!.occurredAt);
    const found = await reconcile();
    expect(found.matched).toBe(agreed.matched + 2);
    expect(found.differences).toEqual(
      expect.arrayContaining([
        { providerId: refund!.id, kind: 'refund', oursCents: 0, theirsCents: -100, date: refundDay },
        { providerId: unsettled, kind: 'charge', oursCents: 1500, theirsCents: 0, date: chargeDay },
        { providerId: unsettled, kind: 'fee', oursCents: estimate(1500), theirsCents: 0, date: chargeDay },
      ]),
    );
    expect(found.differences).toHaveLength(3);
    const csv = (await stripe.admin.get(`/api/admin/reconciliation.csv?from=${firstDay}&to=${dayOf(Date.now())}`)).text;
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,providerId,kind,oursCents,theirsCents,differenceCents');
    expect(lines).toContain(`${refundDay},${refund!.id},refund,0,-100,100`);
    expect(lines).toHaveLength(4);

    // Told and settled, the differences go.
    await stripe.deliver(stripe.fake.event('charge.refunded', refunded));
    stripe.fake.settle(unsettled, 63);
    await stripe.server.jobs.drain({ skipBackoff: true });
    expect((await reconcile()).differences).toEqual([]);
    // A period before any of it: nothing moved.
    expect(await reconcile('2025-01-01', '2025-01-31')).toMatchObject({ matched: 0, differences: [] });
  });

  it('refuses a period it cannot compare, in words', async () => {
    const ask = (query: string) => stripe.admin.get(`/api/admin/reconciliation?${query}`);
    expect(fieldErrors((await ask('from=2026-11-10&to=2026-11-01')).json)).toEqual({
      to: 'The end date cannot be before the start date.',
    });
    expect(fieldErrors((await ask('from=2026-02-30&to=2026-03-01')).json)).toEqual({
      from: 'Please enter a valid date (YYYY-MM-DD).',
    });
    expect(fieldErrors((await ask('from=2024-01-01&to=2026-01-01')).json)).toEqual({
      to: 'Please choose a period of at most 366 days.',
    });
    expect(fieldErrors((await ask('to=2026-01-01')).json)).toEqual({ from: 'Please enter a valid date (YYYY-MM-DD).' });
  });

  it('shows a disbursement pending past a day as stale with its age, and Mark failed puts the money back', async () => {
    const owed = await stripe.pay({ email: email('to-disburse'), donationCents: 9000, tipCents: 0, feeCents: 228 });
    expect(owed).toBeTruthy();
    const before = await summary();
    const start = async () => {
      const answer = await stripe.admin.post('/api/admin/disbursement/initialize', {
        json: { ein: RED_CROSS, amountCents: 1000 },
      });
      expect(answer.status, answer.text).toBe(200);
      return initializeResponseSchema.parse(answer.json);
    };
    const first = await start();
    // Started 30 hours ago: the giving site never came back.
    const longAgo = new Date(Date.now() - 30 * 60 * 60 * 1000);
    stripe.server.db
      .update(disbursements)
      .set({ createdAt: longAgo })
      .where(eq(disbursements.id, first.disbursement.id))
      .run();
    expect(await summary()).toMatchObject({ hasPending: true, pendingSince: longAgo.toISOString() });
    const failed = await stripe.admin.patch(`/api/admin/disbursement/${first.disbursement.id}`, {
      json: { status: 'FAILED' },
    });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.json).toMatchObject({ disbursement: { status: 'FAILED' } });
    expect(await summary()).toMatchObject({
      hasPending: false,
      pendingSince: null,
      outstandingCents: before.outstandingCents,
    });
    // Once ended, for good.
    const again = await stripe.admin.patch(`/api/admin/disbursement/${first.disbursement.id}`, {
      json: { status: 'COMPLETE' },
    });
    expect(again.status).toBe(409);

    // The giving site's failure return does the same, with its single-use secret.
    const second = await start();
    const returned = await stripe.admin.patch(`/api/admin/disbursement/${second.disbursement.id}/callback`, {
      json: { action: 'markFailed', callbackSecret: second.callbackSecret },
    });
    expect(returned.json).toMatchObject({
      disbursement: { status: 'FAILED' },
      message: `Disbursement ${second.disbursement.id} to American National Red Cross failed; nothing was paid. The amount is still outstanding.`,
    });
    expect((await summary()).outstandingCents).toBe(before.outstandingCents);
    const history = disbursementHistorySchema.parse(
      (await stripe.admin.get(`/api/admin/disbursements/${RED_CROSS}`)).json,
    );
    const statusOf = (id: number) => history.results.find((row) => row.id === id)?.status;
    expect([statusOf(first.disbursement.id), statusOf(second.disbursement.id)]).toEqual(['FAILED', 'FAILED']);
  });
});

describe('the reconciliation with the test provider', () => {
  const server = useTestServer();

  it("compares the journal with the test provider's own records of its payments", async () => {
    const admin = await adminClient(server);
    const owner = await verifiedUser(server, 'reconciled-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
    // The site's days the payments were made on: one, unless its midnight came between them.
    const from = dayOf(Date.now());
    await donate(server, { fundraiserId: fundraiser.id, email: 'one@example.org', donationCents: 1200, tipCents: 100 });
    await donate(server, { fundraiserId: fundraiser.id, email: 'two@example.org', donationCents: 800 });
    const to = dayOf(Date.now());
    const answer = reconciliationSchema.parse(
      (await admin.get(`/api/admin/reconciliation?from=${from}&to=${to}`)).json,
    );
    // Each payment's charge and fee.
    expect(answer).toMatchObject({ provider: 'test', matched: 4, differences: [] });
  });
});

describe('money integrity under any sequence of events after the sale (fast-check, Stripe path)', () => {
  const stripe = useStripeServer('journal-property-owner@example.org');
  let runNumber = 0;

  type Step =
    | { kind: 'donate'; donationCents: number; tipCents: number; feeCents: number; settled: boolean }
    | { kind: 'settle' }
    | { kind: 'refund'; pick: number; cents: number | null; byItsOwnEvent: boolean; twice: boolean }
    | { kind: 'fail-refund'; pick: number; twice: boolean }
    | { kind: 'dispute'; pick: number; twice: boolean }
    | { kind: 'close-dispute'; pick: number; won: boolean; twice: boolean }
    | { kind: 'redeliver'; pick: number }
    | { kind: 'initialize'; share: number }
    | { kind: 'finish'; how: 'complete' | 'cancel' | 'fail'; byCallback: boolean }
    | { kind: 'manual'; amountCents: number; override: boolean };

  const pick = fc.nat();
  const twice = fc.boolean();
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('donate' as const),
        donationCents: fc.integer({ min: 500, max: 200_000 }),
        tipCents: fc.integer({ min: 0, max: 5_000 }),
        feeCents: fc.integer({ min: 0, max: 3_000 }),
        settled: fc.boolean(),
      }),
    },
    fc.record({ kind: fc.constant('settle' as const) }),
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('refund' as const),
        pick,
        cents: fc.option(fc.integer({ min: 1, max: 100_000 }), { freq: 3 }),
        byItsOwnEvent: fc.boolean(),
        twice,
      }),
    },
    fc.record({ kind: fc.constant('fail-refund' as const), pick, twice }),
    fc.record({ kind: fc.constant('dispute' as const), pick, twice }),
    fc.record({ kind: fc.constant('close-dispute' as const), pick, won: fc.boolean(), twice }),
    fc.record({ kind: fc.constant('redeliver' as const), pick }),
    fc.record({ kind: fc.constant('initialize' as const), share: fc.double({ min: 0.01, max: 1.2, noNaN: true }) }),
    fc.record({
      kind: fc.constant('finish' as const),
      how: fc.constantFrom('complete' as const, 'cancel' as const, 'fail' as const),
      byCallback: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('manual' as const),
      amountCents: fc.integer({ min: 1, max: 50_000 }),
      override: fc.boolean(),
    }),
  );

  type Payment = {
    intentId: string;
    donationCents: number;
    tipCents: number;
    feeCents: number;
    settled: boolean;
    refunds: { id: string; cents: number; failed: boolean }[];
    disputes: { id: string; cents: number; outcome: 'open' | 'won' | 'lost' }[];
  };

  /**
   * One payment's part in its charity's money, written out from the rule (docs/architecture.md,
   * Money journal): what went back (refunds not reversed, disputes open or lost) is shared with
   * the tip in proportion, all of the donation once all of it went; the charity carries the fee
   * (Stripe's, or the estimate until Stripe tells it) of what it kept, at the payment's rate.
   */
  function figuresOf(payment: Payment) {
    const total = payment.donationCents + payment.tipCents;
    const refunded = payment.refunds.filter((refund) => !refund.failed).reduce((sum, refund) => sum + refund.cents, 0);
    const disputed = payment.disputes.filter((dispute) => dispute.outcome !== 'won');
    const takenBack = refunded + disputed.reduce((sum, dispute) => sum + dispute.cents, 0);
    const lost = disputed
      .filter((dispute) => dispute.outcome === 'lost')
      .reduce((sum, dispute) => sum + dispute.cents, 0);
    const charityBack =
      takenBack >= total
        ? payment.donationCents
        : Math.min(payment.donationCents, Math.round((takenBack * payment.donationCents) / total));
    const kept = payment.donationCents - charityBack;
    const fee = payment.settled ? payment.feeCents : estimate(total);
    return {
      kept,
      feeShare: Math.round((fee * kept) / total),
      refunded,
      takenBack,
      ownsAlbum: refunded + lost < total,
    };
  }

  it('reconciles every charity to the cent through refunds, failed refunds, disputes won and lost, late fees, disbursements and redeliveries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        // Each run pays its own charity, so runs do not see each other's money.
        const ein = String(800_000_000 + ++runNumber);
        stripe.server.sqlite
          .prepare('UPDATE fundraisers SET charity_ein = ? WHERE id = ?')
          .run(ein, stripe.fundraiserId);
        const raisedAtStart =
          fundraiserSchema.parse((await stripe.server.client().get(`/api/fundraisers/${stripe.fundraiserId}`)).json)
            .totalRaised ?? 0;
        const paid: Payment[] = [];
        const deliveries: { payload: string; signature: string }[] = [];
        let completed = 0;
        let pending: { id: number; amountCents: number; secret: string } | null = null;
        const usedSecrets: { id: number; secret: string }[] = [];

        const tell = async (delivery: { payload: string; signature: string }, atOnce: boolean) => {
          deliveries.push(delivery);
          if (atOnce) await stripe.deliverTwiceAtOnce(delivery);
          else expect((await stripe.deliver(delivery)).status).toBe(200);
        };
        const charity = () => {
          const figures = paid.map(figuresOf);
          const donated = figures.reduce((sum, payment) => sum + payment.kept, 0);
          const afterFees = donated - figures.reduce((sum, payment) => sum + payment.feeShare, 0);
          return { donated, afterFees, outstanding: afterFees - completed };
        };
        const settleAll = async () => {
          for (const payment of paid.filter((candidate) => !candidate.settled)) {
            stripe.fake.settle(payment.intentId, payment.feeCents);
            payment.settled = true;
          }
          await stripe.server.jobs.drain({ skipBackoff: true });
        };

        for (const next of steps) {
          const payment = paid.length > 0 && 'pick' in next ? paid[next.pick % paid.length]! : undefined;
          if (next.kind === 'donate') {
            const intentId = await stripe.pay({
              email: `journal-run-${runNumber}@example.org`,
              donationCents: next.donationCents,
              tipCents: next.tipCents,
              feeCents: next.settled ? next.feeCents : null,
            });
            paid.push({ intentId, ...next, refunds: [], disputes: [] });
          } else if (next.kind === 'settle') {
            await settleAll();
          } else if (next.kind === 'refund' && payment) {
            const { takenBack } = figuresOf(payment);
            const left = payment.donationCents + payment.tipCents - takenBack;
            // Stripe refunds at most what is left, and not a charge under an open dispute.
            if (left <= 0 || payment.disputes.some((dispute) => dispute.outcome === 'open')) continue;
            stripe.fake.refund(payment.intentId, Math.min(next.cents ?? left, left));
            const made = stripe.fake.refundsOf(payment.intentId).at(-1)!;
            payment.refunds.push({ id: made.id, cents: made.amount, failed: false });
            await tell(
              next.byItsOwnEvent
                ? stripe.fake.event('refund.created', made.id)
                : stripe.fake.event('charge.refunded', payment.intentId),
              next.twice,
            );
          } else if (next.kind === 'fail-refund' && payment) {
            const refund = payment.refunds.find((candidate) => !candidate.failed);
            if (!refund) continue;
            stripe.fake.failRefund(refund.id);
            refund.failed = true;
            await tell(stripe.fake.event('charge.refund.updated', refund.id), next.twice);
          } else if (next.kind === 'dispute' && payment) {
            const { takenBack } = figuresOf(payment);
            const left = payment.donationCents + payment.tipCents - takenBack;
            if (left <= 0 || payment.disputes.some((dispute) => dispute.outcome === 'open')) continue;
            const dispute = stripe.fake.dispute(payment.intentId, left);
            payment.disputes.push({ id: dispute.id, cents: left, outcome: 'open' });
            await tell(stripe.fake.event('charge.dispute.created', dispute.id), next.twice);
          } else if (next.kind === 'close-dispute' && payment) {
            const dispute = payment.disputes.find((candidate) => candidate.outcome === 'open');
            if (!dispute) continue;
            dispute.outcome = next.won ? 'won' : 'lost';
            stripe.fake.closeDispute(dispute.id, dispute.outcome);
            await tell(stripe.fake.event('charge.dispute.closed', dispute.id), next.twice);
          } else if (next.kind === 'redeliver' && deliveries.length > 0) {
            expect((await stripe.deliver(deliveries[next.pick % deliveries.length]!)).status).toBe(200);
          } else if (next.kind === 'initialize') {
            const { outstanding } = charity();
            const amountCents = Math.max(1, Math.round(Math.max(outstanding, 0) * next.share));
            const answer = await stripe.admin.post('/api/admin/disbursement/initialize', {
              json: { amountCents, ein },
            });
            if (pending) expect(answer.json).toMatchObject({ code: 'PENDING_DISBURSEMENT' });
            else if (amountCents > outstanding) {
              expect(answer.json).toMatchObject({
                code: 'INCORRECT_DISBURSEMENT_AMOUNT',
                outstandingAmountCents: Math.max(outstanding, 0),
              });
            } else {
              const started = initializeResponseSchema.parse(answer.json);
              pending = { id: started.disbursement.id, amountCents, secret: started.callbackSecret };
            }
          } else if (next.kind === 'finish' && pending) {
            const status = { complete: 'COMPLETE', cancel: 'CANCELED', fail: 'FAILED' }[next.how];
            const action = { complete: 'markComplete', cancel: 'markCanceled', fail: 'markFailed' }[next.how];
            const answer = next.byCallback
              ? await stripe.admin.patch(`/api/admin/disbursement/${pending.id}/callback`, {
                  json: { action, callbackSecret: pending.secret },
                })
              : await stripe.admin.patch(`/api/admin/disbursement/${pending.id}`, { json: { status } });
            expect(answer.status, answer.text).toBe(200);
            if (next.how === 'complete') completed += pending.amountCents;
            usedSecrets.push({ id: pending.id, secret: pending.secret });
            pending = null;
          } else if (next.kind === 'manual') {
            const answer = await stripe.admin.post('/api/admin/disbursements', {
              json: {
                ein,
                amountCents: next.amountCents,
                notes: '',
                charityName: 'Run',
                finalizedAt: '2026-11-20',
                overrideOutstanding: next.override,
              },
            });
            const over = next.amountCents > Math.max(charity().outstanding, 0);
            if (pending) expect(answer.json).toMatchObject({ code: 'PENDING_DISBURSEMENT' });
            else if (over && !next.override)
              expect(answer.json).toMatchObject({ code: 'INCORRECT_DISBURSEMENT_AMOUNT' });
            else {
              expect(answer.status, answer.text).toBe(201);
              completed += next.amountCents;
            }
          }

          // After every step: the admin's figures, the public ledger and the fundraiser's total
          // are the model's, to the cent.
          const model = charity();
          const summaries = disbursementSummariesSchema.parse(
            (await stripe.admin.get('/api/admin/disbursements')).json,
          ).results;
          const summary = summaries.find((candidate) => candidate.ein === ein);
          expect(
            summary ?? { donatedCents: 0, afterFeesDonatedCents: 0, disbursedCents: 0, outstandingCents: 0 },
          ).toMatchObject({
            donatedCents: model.donated,
            afterFeesDonatedCents: model.afterFees,
            disbursedCents: completed,
            outstandingCents: model.outstanding,
          });
          const ledger = ledgerSchema.parse((await stripe.server.client().get('/api/ledger')).json);
          const entry = ledger.results.find((candidate) => candidate.ein === ein);
          if (summary)
            expect(entry).toMatchObject({ outstandingCents: model.outstanding, donatedCents: model.donated });
          const raised = fundraiserSchema.parse(
            (await stripe.server.client().get(`/api/fundraisers/${stripe.fundraiserId}`)).json,
          ).totalRaised;
          expect(raised).toBe(raisedAtStart + model.donated);
          // The album is the buyer's exactly while the payment stands.
          for (const payment of paid) {
            const row = stripe.server.db
              .select()
              .from(donations)
              .where(eq(donations.paymentIntentId, payment.intentId))
              .get()!;
            expect(row.status, payment.intentId).toBe(figuresOf(payment).ownsAlbum ? 'succeeded' : 'refunded');
          }
        }

        // The charity's journal: charges − fees' charity share − what went back − disbursements
        // = its balance, and no provider object recorded twice.
        const rows = stripe.server.db.select().from(moneyJournal).where(eq(moneyJournal.charityEin, ein)).all();
        const byKind = (kinds: string[]) =>
          rows.filter((row) => kinds.includes(row.kind)).reduce((sum, row) => sum + row.charityCents, 0);
        const balance =
          byKind(['charge', 'fee_cover']) +
          byKind(['fee']) +
          byKind(['refund', 'refund_reversed']) +
          byKind(['dispute_opened', 'dispute_won', 'dispute_lost']) +
          byKind(['disbursement']);
        expect(balance).toBe(charity().outstanding);
        expect(new Set(rows.map((row) => row.providerId)).size).toBe(rows.length);

        // The Transactions tab's sums equal its CSV's, whatever happened.
        const list = adminTransactionsSchema.parse((await stripe.admin.get('/api/admin/transactions')).json);
        const csv = (await stripe.admin.get('/api/admin/transactions/download')).text.trimEnd().split('\r\n');
        const header = csv[0]!.split(',');
        const column = (name: string) =>
          csv.slice(1).reduce((sum, line) => sum + Number(line.split(',').at(header.indexOf(name) - header.length)), 0);
        expect({
          payments: csv.length - 1,
          donationCents: column('amountCents'),
          tipCents: column('tipCents'),
          feeCents: column('feeCents'),
          refundedCents: column('refundedCents'),
          disputedCents: column('disputedCents'),
        }).toEqual({
          payments: list.totals.all.payments,
          donationCents: list.totals.all.donationCents,
          tipCents: list.totals.all.tipCents,
          feeCents: list.totals.all.feeCents,
          refundedCents: list.totals.all.refundedCents,
          disputedCents: list.totals.all.disputedCents,
        });

        // A giving site's secret works once: every used one is refused now, whatever it asks.
        for (const used of usedSecrets) {
          const replay = await stripe.admin.patch(`/api/admin/disbursement/${used.id}/callback`, {
            json: { action: 'markComplete', callbackSecret: used.secret },
          });
          expect(replay.status).toBe(409);
        }
        if (pending)
          await stripe.admin.patch(`/api/admin/disbursement/${pending.id}`, { json: { status: 'CANCELED' } });
        await settleAll();
      }),
      { numRuns: 60 },
    );
    // Sixty runs of up to fourteen steps, each checked over HTTP: seconds alone, longer on a busy machine.
  }, 180_000);
});
