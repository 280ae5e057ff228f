import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { donations, fundraiserTracks, purchases } from '../../server/db/schema';
import { newRenditionName } from '../../server/infra/storage/media';
import { mp3Frames } from '../fixtures/audio';
import { paymentConfigSchema, transactionSummarySchema } from '../../shared/schemas/donations';
import { fundraiserSchema, type Fundraiser } from '../../shared/schemas/fundraisers';
import { startDonation } from '../fixtures/donations';
import { FAKE_STRIPE_KEYS, type FakeStripe, startFakeStripe } from '../fixtures/fake-stripe';
import { createFundraiser } from '../fixtures/fundraisers';
import { startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';

// The Stripe path (issue 10): the real stripe SDK in the server, pointed by STRIPE_API_URL at a
// fake Stripe on this machine (tests/fixtures/fake-stripe.ts), and webhooks signed as Stripe signs
// them. Whoever reports a payment, however often and in whatever order, it is fulfilled once.

let fake: FakeStripe;
let server: TestServer;
let fundraiser: Fundraiser;
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

beforeAll(async () => {
  fake = await startFakeStripe();
  server = await startTestServer({ ...FAKE_STRIPE_KEYS, STRIPE_API_URL: fake.url });
  const owner = await verifiedUser(server, 'stripe-owner@example.org');
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

function deliver(delivery: { payload: string; signature: string }) {
  return server.client().post('/api/stripe/webhook', {
    body: delivery.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
  });
}

function donationOf(paymentIntentId: string) {
  return server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
}

function purchasesOf(paymentIntentId: string) {
  return server.db
    .select()
    .from(purchases)
    .where(eq(purchases.donationId, donationOf(paymentIntentId).id))
    .all();
}

async function totalRaised() {
  return fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json).totalRaised;
}

describe('Stripe as the payment provider', () => {
  it('tells the client to load Stripe with the publishable key, and turns the test provider off', async () => {
    const config = paymentConfigSchema.parse((await server.client().get('/api/payments/config')).json);
    expect(config).toEqual({ provider: 'stripe', publishableKey: FAKE_STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY });
    const confirm = await server.client().post('/api/test-payments/confirm', {
      json: { clientSecret: 'pi_x_secret_y', cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
    });
    expect(confirm.status).toBe(404);
  });

  it('creates an intent for donation + tip in USD, with the metadata and automatic payment methods', async () => {
    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email: uniqueEmail('stripe'),
      donationCents: 2000,
      tipCents: 300,
    });
    const created = fake.intents.get(intent.paymentIntentId)!;
    expect(created).toMatchObject({ amount: 2300, currency: 'usd', automatic_payment_methods: { enabled: true } });
    expect(created.metadata).toMatchObject({
      projectId: String(fundraiser.id),
      donationCents: '2000',
      tipCents: '300',
    });
    expect(intent.clientSecret).toBe(created.client_secret);
    expect(donationOf(intent.paymentIntentId)).toMatchObject({ status: 'pending', provider: 'stripe' });
  });

  it('fulfils once when the same succeeded event arrives ten times at once', async () => {
    const email = uniqueEmail('burst');
    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email,
      donationCents: 2000,
      tipCents: 500,
    });
    fake.succeed(intent.paymentIntentId, 85);
    const delivery = fake.event('payment_intent.succeeded', intent.paymentIntentId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(delivery)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    // Stripe's fee, from the expanded balance transaction; the charity carries 20/25 of it.
    expect(donationOf(intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      feeCents: 85,
      charityFeeCents: 68,
    });
    expect(purchasesOf(intent.paymentIntentId)).toHaveLength(1);
    await server.jobs.drain();
    expect(server.outbox.messages(email)).toHaveLength(1);
    // A second event for the same payment (another id) changes nothing either.
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    await server.jobs.drain();
    expect(server.outbox.messages(email)).toHaveLength(1);
  });

  it('fulfils from the success page when the webhook has not come yet', async () => {
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('early') });
    const query = () => server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`);
    expect((await query()).status).toBe(404);
    fake.succeed(intent.paymentIntentId, 52);
    const summary = transactionSummarySchema.parse((await query()).json);
    expect(summary).toMatchObject({ donationCents: 1000, tipCents: 0, taxDeductibleCents: 500 });
    expect(donationOf(intent.paymentIntentId)).toMatchObject({ status: 'succeeded', feeCents: 52 });
    // The webhook that comes later is a 200 that changes nothing.
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    expect(purchasesOf(intent.paymentIntentId)).toHaveLength(1);
  });

  it('refuses tampered, stale and missing signatures with 400, and changes nothing', async () => {
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('forged') });
    fake.succeed(intent.paymentIntentId, 52);
    const good = fake.event('payment_intent.succeeded', intent.paymentIntentId);
    const tampered = { ...good, payload: good.payload.replace('"object":"event"', '"object":"event","x":1') };
    const stale = fake.event('payment_intent.succeeded', intent.paymentIntentId, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await deliver(tampered)).status).toBe(400);
    expect((await deliver(stale)).status).toBe(400);
    const unsigned = await server.client().post('/api/stripe/webhook', {
      body: good.payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    expect(donationOf(intent.paymentIntentId).status).toBe('pending');
  });

  it('never lets a failure undo a success, and a refund takes the album and the money back', async () => {
    const before = await totalRaised();
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('refund') });
    fake.succeed(intent.paymentIntentId, 52);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    expect((await deliver(fake.event('payment_intent.payment_failed', intent.paymentIntentId))).status).toBe(200);
    expect(donationOf(intent.paymentIntentId).status).toBe('succeeded');
    expect(await totalRaised()).toBe((before ?? 0) + 1000);

    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect(donationOf(intent.paymentIntentId).status).toBe('refunded');
    expect(purchasesOf(intent.paymentIntentId)[0]!.revokedAt).not.toBeNull();
    expect(await totalRaised()).toBe(before ?? 0);
    // A success redelivered after the refund does not bring it back.
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    expect(donationOf(intent.paymentIntentId).status).toBe('refunded');
  });

  it('takes the stream from the buyer at once on a refund, though they were just listening', async () => {
    const email = uniqueEmail('refund-listener');
    const buyer = await verifiedUser(server, email);
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email });
    fake.succeed(intent.paymentIntentId, 52);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    // The track as the pipeline leaves it: a rendition on disk, the row ready.
    const track = server.db
      .select({ id: fundraiserTracks.id })
      .from(fundraiserTracks)
      .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
      .get()!;
    const rendition = newRenditionName();
    fs.writeFileSync(server.media.streamFile(rendition), mp3Frames(4096));
    server.db
      .update(fundraiserTracks)
      .set({ status: 'ready', streamFile: rendition })
      .where(eq(fundraiserTracks.id, track.id))
      .run();
    // A player seeking: the permission is remembered between its ranges (server/access/stream-grants.ts).
    const seek = () =>
      fetch(`${server.baseUrl}/api/tracks/${track.id}/stream`, {
        headers: { cookie: buyer.cookieHeader(), 'x-forwarded-for': buyer.ip, range: 'bytes=0-99' },
      }).then((response) => response.status);
    expect(await seek()).toBe(206);
    expect(await seek()).toBe(206);
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect(await seek()).toBe(403);
  });

  it('ends in the same state whatever order the events arrive in, and the total is the sum of what stayed paid', async () => {
    const kinds = ['payment_intent.succeeded', 'payment_intent.payment_failed', 'charge.refunded'] as const;
    let expectedTotal = (await totalRaised()) ?? 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.integer({ min: 1000, max: 250_000 }),
        async (sequence, paid, donationCents) => {
          const intent = await startDonation(server, {
            fundraiserId: fundraiser.id,
            email: uniqueEmail('order'),
            donationCents,
            tipCents: donationCents % 7 === 0 ? 0 : 199,
          });
          if (paid) fake.succeed(intent.paymentIntentId, 52);
          for (const kind of sequence) {
            expect((await deliver(fake.event(kind, intent.paymentIntentId))).status).toBe(200);
          }
          const status = donationOf(intent.paymentIntentId).status;
          const refunded = sequence.includes('charge.refunded');
          const succeeded = paid && sequence.includes('payment_intent.succeeded');
          const expected = refunded
            ? 'refunded'
            : succeeded
              ? 'succeeded'
              : sequence.includes('payment_intent.payment_failed')
                ? 'failed'
                : 'pending';
          // A refund first and the success later: still refunded. A failure before the success: succeeded.
          expect(status).toBe(expected);
          const owned = purchasesOf(intent.paymentIntentId).filter((purchase) => purchase.revokedAt === null);
          expect(owned).toHaveLength(status === 'succeeded' ? 1 : 0);
          // The tip is the platform's: only the donation counts toward the fundraiser.
          if (status === 'succeeded') expectedTotal += donationCents;
          expect(await totalRaised()).toBe(expectedTotal);
        },
      ),
      { numRuns: 25 },
    );
  });
});
