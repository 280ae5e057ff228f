import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEE_RATES } from '../../shared/fee-cover';
import fs from 'node:fs';
import { donations, fundraiserTracks, jobs, paymentEvents, purchases } from '../../server/db/schema';
import { newRenditionName } from '../../server/infra/storage/media';
import { mp3Frames } from '../fixtures/audio';
import { adminTransactionsSchema } from '../../shared/answers/admin-money';
import { paymentConfigSchema, purchaseLinkSchema, transactionSummarySchema } from '../../shared/answers/donations';
import { fundraiserSchema, type Fundraiser } from '../../shared/answers/fundraisers';
import { libraryAlbumDetailSchema, libraryAlbumListSchema } from '../../shared/answers/library';
import { startDonation } from '../fixtures/donations';
import { moneyOf } from '../fixtures/money-journal';
import { testCard } from '../fixtures/test-cards';
import { FAKE_STRIPE_KEYS, type FakeStripe, startFakeStripe } from '../fixtures/fake-stripe';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { adminClient, startTestServer, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

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

async function totalRaised(id = fundraiser.id) {
  return fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${id}`)).json).totalRaised ?? 0;
}

/** A donation paid through Stripe and announced by its webhook. */
async function paidDonation(input: { email: string; donationCents: number; tipCents: number; feeCents: number }) {
  const intent = await startDonation(server, { fundraiserId: fundraiser.id, ...input });
  fake.succeed(intent.paymentIntentId, input.feeCents);
  expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
  return intent;
}

/**
 * The donation's part of a refund of `refundedCents` of the payment, written out here as the
 * rule says (docs/architecture.md, Payments) rather than taken from the server: in proportion to
 * the donation's part of the payment, rounded to the cent; all of it once everything is refunded.
 */
function donationPartOf(refundedCents: number, donationCents: number, tipCents: number) {
  const payment = donationCents + tipCents;
  return refundedCents >= payment ? donationCents : Math.round((refundedCents * donationCents) / payment);
}

/** GET with the body as bytes (TestClient reads text, which would mangle audio and zips). */
async function statusOf(client: TestClient, pathname: string) {
  const cookie = client.cookieHeader();
  const response = await fetch(`${server.baseUrl}${pathname}`, { headers: cookie ? { cookie } : {} });
  await response.arrayBuffer();
  return response.status;
}

describe('Stripe as the payment provider', () => {
  it('tells the client to load Stripe with the publishable key, and turns the test provider off', async () => {
    const config = paymentConfigSchema.parse((await server.client().get('/api/payments/config')).json);
    expect(config).toEqual({
      provider: 'stripe',
      publishableKey: FAKE_STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY,
      feeRates: DEFAULT_FEE_RATES,
    });
    const confirm = await server.client().post('/api/test-payments/confirm', {
      json: { clientSecret: 'pi_x_secret_y', ...testCard() },
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
    // The intent names its donation row, so a payment in Stripe's dashboard leads to it.
    expect(created.metadata).toEqual({
      transactionId: String(donationOf(intent.paymentIntentId).id),
      projectId: String(fundraiser.id),
      donationCents: '2000',
      tipCents: '300',
      feeCoverCents: '0',
    });
    expect(intent.clientSecret).toBe(created.client_secret);
    expect(donationOf(intent.paymentIntentId)).toMatchObject({ status: 'pending', provider: 'stripe' });

    // A gift to the platform has no fundraiser, so no projectId at all rather than an empty one.
    const gift = await startDonation(server, {
      fundraiserId: null,
      email: uniqueEmail('gift'),
      donationCents: 0,
      tipCents: 500,
    });
    expect(fake.intents.get(gift.paymentIntentId)!.metadata).toEqual({
      transactionId: String(donationOf(gift.paymentIntentId).id),
      donationCents: '0',
      tipCents: '500',
      feeCoverCents: '0',
    });
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
    // The event is remembered once, by its id: what recognises the nine redeliveries.
    const eventId = (JSON.parse(delivery.payload) as { id: string }).id;
    expect(server.db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId)).all()).toEqual([
      expect.objectContaining({ id: eventId, type: 'payment_intent.succeeded' }),
    ]);
    // Stripe's fee, from the expanded balance transaction; the charity carries 20/25 of it.
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      feeCents: 85,
      feePending: false,
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
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({ status: 'succeeded', feeCents: 52 });
    // The webhook that comes later is a 200 that changes nothing.
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    expect(purchasesOf(intent.paymentIntentId)).toHaveLength(1);
  });

  it('fulfils at once when Stripe has not settled the fee yet, counts the estimate, and records the fee when it has', async () => {
    const email = uniqueEmail('unsettled');
    const before = await totalRaised();
    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email,
      donationCents: 3000,
      tipCents: 1000,
    });
    fake.succeed(intent.paymentIntentId, null);
    // The success page gets its summary, not a 500: the donor has paid.
    const query = await server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`);
    expect(query.status, query.text).toBe(200);
    expect(transactionSummarySchema.parse(query.json)).toMatchObject({ donationCents: 3000, tipCents: 1000, email });
    // Counted at once, at the estimated fee (2.2 % + 30¢ of $40.00), flagged as pending: it never
    // drops out of its charity's balance.
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      feeCents: 118,
      feePending: true,
      charityFeeCents: 89,
    });
    expect(purchasesOf(intent.paymentIntentId)).toHaveLength(1);
    expect(await totalRaised()).toBe(before + 3000);
    // The webhook is a 200 too (Stripe would otherwise retry it for days).
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);

    // The receipt goes out now; the fee job finds Stripe still without the fee and tries later.
    await server.jobs.drain();
    expect(server.outbox.messages(email)).toHaveLength(1);
    const feeJob = () =>
      server.db
        .select()
        .from(jobs)
        .all()
        .find(
          (job) =>
            job.kind === 'donation-fee' && JSON.parse(job.payload).donationId === donationOf(intent.paymentIntentId).id,
        )!;
    expect(feeJob()).toMatchObject({ status: 'queued', attempts: 1 });
    expect(feeJob().lastError).toContain('not known yet');

    fake.settle(intent.paymentIntentId, 121);
    await server.jobs.drain({ skipBackoff: true });
    expect(feeJob().status).toBe('done');
    // Stripe's fee replaces the estimate; 3000 of 4000 is the donation's: the charity carries 3/4 of it.
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      feeCents: 121,
      feePending: false,
      charityFeeCents: 91,
    });
    expect(server.outbox.messages(email)).toHaveLength(1);
  });

  it('takes a partial refund out of the totals in proportion, keeps the album, and counts each refund once', async () => {
    const email = uniqueEmail('partial');
    const before = await totalRaised();
    // $40.00 donation and a $10.00 tip: 4/5 of any refund is the donation's.
    const intent = await paidDonation({ email, donationCents: 4000, tipCents: 1000, feeCents: 175 });
    expect(await totalRaised()).toBe(before + 4000);
    const refund = async (cents: number) => {
      const cumulative = fake.refund(intent.paymentIntentId, cents);
      return { cumulative, delivery: fake.event('charge.refunded', intent.paymentIntentId) };
    };

    const first = await refund(1000);
    expect(JSON.parse(first.delivery.payload).data.object).toMatchObject({ amount_refunded: 1000, refunded: false });
    expect((await deliver(first.delivery)).status).toBe(200);
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      refundedCents: 1000,
      charityBackCents: 800,
      // The fee of the $32.00 the charity keeps, at the payment's rate: 175 × 3200 / 5000.
      charityFeeCents: 112,
    });
    expect(purchasesOf(intent.paymentIntentId)[0]!.revokedAt).toBeNull();
    expect(await totalRaised()).toBe(before + 3200);

    // The second refund's event comes first, then the first's again under a new id: each refund is
    // counted once by its own id, so the late one changes nothing, and nothing is added twice.
    const second = await refund(1500);
    expect((await deliver(second.delivery)).status).toBe(200);
    expect((await deliver(first.delivery)).status).toBe(200);
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      refundedCents: 2500,
      charityBackCents: 2000,
      charityFeeCents: 70,
    });
    expect(await totalRaised()).toBe(before + 2000);
    expect(purchasesOf(intent.paymentIntentId)[0]!.revokedAt).toBeNull();
    // Admins still see the payment, with what was refunded of it, in the list and the CSV.
    const admin = await adminClient(server);
    const list = await admin.get('/api/admin/transactions');
    expect(list.status, list.text).toBe(200);
    const listed = adminTransactionsSchema.parse(list.json).results.find((row) => row.email === email);
    expect(listed).toMatchObject({
      amountCents: 4000,
      tipCents: 1000,
      feeCents: 175,
      feeStatus: 'known',
      refundedCents: 2500,
      status: 'partly_refunded',
    });
    const csv = (await admin.get('/api/admin/transactions/download')).text.split('\r\n');
    const refundedColumn = csv[0]!.split(',').indexOf('refundedCents');
    expect(refundedColumn).toBeGreaterThan(0);
    expect(csv.find((line) => line.includes(email))!.split(',')[refundedColumn]).toBe('2500');

    // The rest: a full refund, and the album goes with it.
    const last = await refund(10_000);
    expect(last.cumulative).toBe(5000);
    expect((await deliver(last.delivery)).status).toBe(200);
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      status: 'refunded',
      refundedCents: 5000,
      charityBackCents: 4000,
      charityFeeCents: 0,
    });
    expect(purchasesOf(intent.paymentIntentId)[0]!.revokedAt).not.toBeNull();
    expect(await totalRaised()).toBe(before);
    // An earlier partial event arriving now cannot bring anything back.
    expect((await deliver(second.delivery)).status).toBe(200);
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({ status: 'refunded', refundedCents: 5000 });
  });

  it('takes the album away on a full refund: Past donations, streams, the zip and the receipt link', async () => {
    const owner = await verifiedUser(server, uniqueEmail('album-owner'));
    const album = await createFundraiser(owner, { publish: true, tracks: 1, details: { name: 'Refundable' } });
    await server.jobs.drain();
    const email = uniqueEmail('buyer');
    const buyer = await verifiedUser(server, email);
    const intent = await startDonation(server, { fundraiserId: album.id, email, donationCents: 1000, tipCents: 0 });
    fake.succeed(intent.paymentIntentId, 52);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    await server.jobs.drain();
    const receipt = server.outbox
      .messages(email)
      .at(-1)!
      .replace(/=\r?\n/g, '');
    const token = receipt.match(/\/purchases\/([A-Za-z0-9_-]{43})/)![1]!;

    const pastDonations = async () =>
      libraryAlbumListSchema.parse((await buyer.get('/api/music-library/purchases?page=0&pageSize=20')).json).results;
    const detail = libraryAlbumDetailSchema.parse((await buyer.get(`/api/music-library/album/${album.id}`)).json);
    const stream = detail.tracks[0]!.src!;
    const paths = [
      stream,
      `/api/fundraisers/${album.id}/download`,
      `/api/purchases/${token}`,
      `/api/purchases/${token}/download`,
    ];
    const statuses = () => Promise.all(paths.map((pathname) => statusOf(buyer, pathname)));
    // And what a guest is given to play and download: the grants in the receipt page's and the
    // success page's URLs.
    const guest = server.client();
    const granted = [
      purchaseLinkSchema.parse((await guest.get(`/api/purchases/${token}`)).json).tracks[0]!.src,
      ...(await (async () => {
        const lookup = await guest.get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`);
        const { tracks, downloadUrl } = transactionSummarySchema.parse(lookup.json);
        return [tracks[0]!.src, downloadUrl!];
      })()),
    ];
    const grantedStatuses = () => Promise.all(granted.map((pathname) => statusOf(guest, pathname)));
    expect((await pastDonations()).map((item) => item.projectId)).toEqual([album.id]);
    expect(await statuses()).toEqual([200, 200, 200, 200]);
    expect(await grantedStatuses()).toEqual([200, 200, 200]);

    // A partial refund leaves the album where it is.
    fake.refund(intent.paymentIntentId, 400);
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect((await pastDonations()).map((item) => item.projectId)).toEqual([album.id]);
    expect(await statuses()).toEqual([200, 200, 200, 200]);
    expect(await grantedStatuses()).toEqual([200, 200, 200]);

    fake.refund(intent.paymentIntentId);
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect(await pastDonations()).toEqual([]);
    expect((await buyer.get(`/api/music-library/album/${album.id}`)).status).toBe(404);
    // The stream and the zip are refused like anyone's who did not buy; the receipt's link is gone.
    expect(await statuses()).toEqual([403, 403, 404, 404]);
    // Grants handed out before the refund end with it, and the success page hands out no more.
    expect(await grantedStatuses()).toEqual([403, 403, 403]);
    expect((await guest.get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`)).status).toBe(404);
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

  it("takes a refunded album out of the buyer's music: the library answers 404 and the stream is refused", async () => {
    // What a device's sync relies on to remove saved music (issue 12): the library's 404.
    const owner = await verifiedUser(server, uniqueEmail('refund-owner'));
    const album = await createFundraiser(owner, { uploads: await uploadListenableMusic(owner, [2]), publish: true });
    await server.jobs.drain();
    const email = uniqueEmail('refund-buyer');
    const buyer = await verifiedUser(server, email);
    const intent = await startDonation(server, { fundraiserId: album.id, email });
    fake.succeed(intent.paymentIntentId, 52);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);

    const bought = await buyer.get(`/api/music-library/album/${album.id}`);
    expect(bought.status, bought.text).toBe(200);
    const src = libraryAlbumDetailSchema.parse(bought.json).tracks[0]!.src!;
    expect((await buyer.get(src, { headers: { range: 'bytes=0-0' } })).status).toBe(206);

    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    expect((await buyer.get(`/api/music-library/album/${album.id}`)).status).toBe(404);
    expect((await buyer.get(`/api/music-library/album/slug/${album.urlSlug}`)).status).toBe(404);
    expect((await buyer.get(src, { headers: { range: 'bytes=0-0' } })).status).toBe(403);
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

  it('ends in the same state whatever order the events arrive in, partial refunds included, and the total is the sum of what stayed paid', async () => {
    type Happening = { kind: 'succeeded' } | { kind: 'failed' } | { kind: 'refund'; cents: number };
    const happening: fc.Arbitrary<Happening> = fc.oneof(
      fc.constant({ kind: 'succeeded' as const }),
      fc.constant({ kind: 'failed' as const }),
      fc.record({ kind: fc.constant('refund' as const), cents: fc.integer({ min: 1, max: 150_000 }) }),
    );
    let expectedTotal = await totalRaised();
    await fc.assert(
      fc.asyncProperty(
        fc.array(happening, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        fc.record({
          donationCents: fc.integer({ min: 1000, max: 250_000 }),
          tipCents: fc.integer({ min: 0, max: 5_000 }),
          feeCents: fc.integer({ min: 0, max: 3_000 }),
        }),
        async (happenings, deliveryKeys, paid, money) => {
          const { donationCents, tipCents, feeCents } = money;
          const payment = donationCents + tipCents;
          const intent = await startDonation(server, {
            fundraiserId: fundraiser.id,
            email: uniqueEmail('order'),
            donationCents,
            tipCents,
          });
          if (paid) fake.succeed(intent.paymentIntentId, feeCents);
          // The events in the order things happened (only a paid charge can be refunded; each
          // refund has its own id), delivered shuffled.
          const events = happenings.flatMap((next) => {
            if (next.kind === 'refund') {
              if (!paid) return [];
              fake.refund(intent.paymentIntentId, next.cents);
              return [fake.event('charge.refunded', intent.paymentIntentId)];
            }
            const type = next.kind === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
            return [fake.event(type, intent.paymentIntentId)];
          });
          const order = events.map((_, i) => i).sort((a, b) => deliveryKeys[a]! - deliveryKeys[b]! || a - b);
          for (const i of order) expect((await deliver(events[i]!)).status).toBe(200);

          const refunded = paid
            ? Math.min(
                payment,
                happenings.reduce((sum, next) => sum + (next.kind === 'refund' ? next.cents : 0), 0),
              )
            : 0;
          const donationPart = donationPartOf(refunded, donationCents, tipCents);
          // A refund proves the payment was made: one told before the success fulfils it.
          const succeeded = paid && happenings.some((next) => next.kind === 'succeeded' || next.kind === 'refund');
          const expected =
            refunded === payment && succeeded
              ? 'refunded'
              : succeeded
                ? 'succeeded'
                : happenings.some((next) => next.kind === 'failed')
                  ? 'failed'
                  : 'pending';
          // A full refund first and the success later: still refunded. A failure before the
          // success: succeeded. A partial refund leaves the state as it was.
          const row = moneyOf(server.db, intent.paymentIntentId);
          expect(row).toMatchObject({ status: expected, refundedCents: refunded, charityBackCents: donationPart });
          if (expected === 'succeeded') {
            // The fee of what the charity kept, at the payment's rate, whatever came first.
            expect(row.charityFeeCents).toBe(Math.round((feeCents * (donationCents - donationPart)) / payment));
          }
          const owned = purchasesOf(intent.paymentIntentId).filter((purchase) => purchase.revokedAt === null);
          expect(owned).toHaveLength(expected === 'succeeded' ? 1 : 0);
          // The tip is the platform's: only what stayed of the donation counts toward the fundraiser.
          if (expected === 'succeeded') expectedTotal += donationCents - donationPart;
          expect(await totalRaised()).toBe(expectedTotal);
        },
      ),
      { numRuns: 40 },
    );
  });
});
