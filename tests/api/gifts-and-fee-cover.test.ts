import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donations, jobs, purchases } from '../../server/db/schema';
import { adminTransactionsSchema, ledgerSchema } from '../../shared/answers/admin-money';
import { paymentConfigSchema, purchaseLinkSchema, transactionSummarySchema } from '../../shared/answers/donations';
import { fundraiserSchema, type Fundraiser } from '../../shared/answers/fundraisers';
import { donationMessages } from '../../shared/donation-rules';
import { DEFAULT_FEE_RATES, feeCoverCents } from '../../shared/fee-cover';
import { siteCalendarDate, siteHour } from '../../shared/site-dates';
import { addDays } from '../../server/db/site-days';
import { GIFT_JOB } from '../../server/features/donations/gift-delivery';
import { donate, payWithTestCard, startDonation } from '../fixtures/donations';
import { FAKE_STRIPE_KEYS, type FakeStripe, startFakeStripe } from '../fixtures/fake-stripe';
import { createFundraiser } from '../fixtures/fundraisers';
import { moneyOf } from '../fixtures/money-journal';
import { adminClient, startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 26, gifts and covering the card fee: money computed once on the server, through both
// payment providers; a gift's album is the recipient's, its two emails go out once each, however
// many report the payment and whenever its day comes.

const server = useTestServer();
let fundraiser: Fundraiser;
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;
/** An email as the outbox holds it, with quoted-printable's soft line breaks undone. */
const read = (message: string) => message.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const isReceipt = (message: string) => /^Subject: Your donation to /m.test(message);
const isGiftEmail = (message: string) => /^Subject: .* sent you an album: /m.test(message);
const linkIn = (message: string) => read(message).match(/\/purchases\/([A-Za-z0-9_-]{43})/)?.[1];

beforeAll(async () => {
  const owner = await verifiedUser(server, 'gift-band@example.org');
  // The minimum of $5.00 buys the album; what is given above it is tax-deductible.
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  await server.jobs.drain();
});

function donationRow(paymentIntentId: string) {
  return server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
}

async function intentProblems(json: object) {
  const answer = await server.client().post('/api/transactions/create-payment-intent', {
    json: {
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: 2500,
      tipCents: 0,
      projectId: fundraiser.id,
      ...json,
    },
  });
  expect(answer.status).toBe(400);
  return (answer.json as { formErrors: { field?: string; message: string }[] }).formErrors.map((error) => [
    error.field,
    error.message,
  ]);
}

describe('covering the card fee', () => {
  it('charges donation + tip + the cover the server worked out, and counts the cover to the charity', async () => {
    const config = paymentConfigSchema.parse((await server.client().get('/api/payments/config')).json);
    expect(config.feeRates).toEqual(DEFAULT_FEE_RATES);
    const email = uniqueEmail('cover');
    const cover = feeCoverCents(2500, 500, DEFAULT_FEE_RATES);
    expect(cover).toBeGreaterThan(0);
    const raisedBefore = fundraiserSchema.parse(
      (await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json,
    ).totalRaised!;

    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email,
      donationCents: 2500,
      tipCents: 500,
      coverFees: true,
    });
    expect(intent).toMatchObject({ amountCents: 3000 + cover, feeCoverCents: cover });
    expect((await payWithTestCard(server, intent.clientSecret)).status).toBe(200);

    // The success page: the cover beside the donation, and in the tax-deductible part.
    const summary = transactionSummarySchema.parse(
      (await server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`)).json,
    );
    expect(summary).toMatchObject({
      donationCents: 2500,
      tipCents: 500,
      feeCoverCents: cover,
      gift: null,
      taxDeductibleCents: 2500 + cover - summary.minimumCents,
    });
    expect(summary.tracks).toHaveLength(1);

    // The journal: the charity's money is donation + cover, and after its share of the fee the
    // charity keeps at least the whole donation.
    const money = moneyOf(server.db, intent.paymentIntentId);
    expect(money.donatedCents).toBe(2500 + cover);
    expect(money.donatedCents - money.charityFeeCents).toBeGreaterThanOrEqual(2500);
    const raised = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(raised.totalRaised).toBe(raisedBefore + 2500 + cover);

    // The receipt says it, once.
    await server.jobs.drain();
    const receipts = server.outbox.messages(email).map(read);
    expect(receipts).toHaveLength(1);
    for (const line of [
      'Donation: $25.00',
      `Card fee covered: $0.${String(cover).padStart(2, '0')}`,
      `Total: $${((3000 + cover) / 100).toFixed(2)}`,
      `Tax-deductible part: $${((2500 + cover - summary.minimumCents) / 100).toFixed(2)}`,
    ]) {
      expect(receipts[0]).toContain(line);
    }

    // The admin's list, its CSV and the public ledger show it.
    const admin = await adminClient(server);
    const list = adminTransactionsSchema.parse((await admin.get('/api/admin/transactions?page=0')).json);
    const row = list.results.find((transaction) => transaction.email === email)!;
    expect(row).toMatchObject({ amountCents: 2500 + cover, feeCoverCents: cover, tipCents: 500 });
    expect(list.totals.all.feeCoverCents).toBe(list.totals.page.feeCoverCents);
    const csv = (await admin.get('/api/admin/transactions/download')).text.trim().split('\n');
    // The new column comes last, so columns read by position stay where they were.
    expect(csv[0]!.trim().split(',').at(-1)).toBe('feeCoverCents');
    expect(
      csv
        .find((text) => text.includes(email))!
        .trim()
        .split(',')
        .at(-1),
    ).toBe(String(cover));
    const ledger = ledgerSchema.parse((await server.client().get('/api/ledger')).json);
    const digits = (ein: string) => ein.replace(/\D/g, '');
    const charity = ledger.results.find((entry) => digits(entry.ein) === digits(fundraiser.charityEin))!;
    expect(charity.feeCoverCents).toBeGreaterThanOrEqual(cover);
    expect(ledger.totals.feeCoverCents).toBe(ledger.results.reduce((sum, entry) => sum + entry.feeCoverCents, 0));
  });

  it('adds nothing unticked, and is refused on a gift to the platform', async () => {
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('no-cover') });
    expect(intent).toMatchObject({ amountCents: 1000, feeCoverCents: 0 });
    expect(await intentProblems({ projectId: null, donationCents: 0, tipCents: 500, coverFees: true })).toEqual([
      ['coverFees', donationMessages.coverFeesToPlatform],
    ]);
  });
});

describe('a gift', () => {
  const gift = (recipientEmail: string, extra: object = {}) => ({
    recipientName: 'Grace',
    recipientEmail,
    message: 'Happy birthday!\nThis one is <for you>.',
    ...extra,
  });

  it("is the recipient's album: the giver gets the receipt, the recipient one gift email with the message", async () => {
    const giver = uniqueEmail('giver');
    const recipient = uniqueEmail('recipient');
    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email: giver,
      name: 'Ada Lovelace',
      donationCents: 2000,
      coverFees: true,
      gift: gift(recipient.toUpperCase()),
    });
    expect((await payWithTestCard(server, intent.clientSecret)).status).toBe(200);

    // Fulfilled again and again at once (the success page's lookups): one purchase, one of each email.
    const lookups = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`),
      ),
    );
    const summary = transactionSummarySchema.parse(lookups[0]!.json);
    // The giver does not get the album (Bandcamp's rule): nothing to play or download here.
    expect(summary).toMatchObject({ gift: { recipientName: 'Grace' }, tracks: [], downloadUrl: null });
    expect(summary.taxDeductibleCents).toBe(2000 + intent.feeCoverCents - summary.minimumCents);
    const bought = server.db
      .select()
      .from(purchases)
      .where(eq(purchases.donationId, donationRow(intent.paymentIntentId).id))
      .all();
    expect(bought.map((purchase) => purchase.email)).toEqual([recipient]);

    await Promise.all([server.jobs.drain(), server.jobs.drain()]);
    await server.jobs.drain();
    const receipts = server.outbox.messages(giver).map(read);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toContain(`This donation is a gift for Grace (${recipient})`);
    expect(linkIn(receipts[0]!)).toBeUndefined();
    const giftEmails = server.outbox.messages(recipient);
    expect(giftEmails.filter(isGiftEmail)).toHaveLength(1);
    expect(giftEmails.filter(isReceipt)).toHaveLength(0);
    const giftEmail = read(giftEmails[0]!);
    expect(giftEmail).toContain(`Subject: Ada Lovelace sent you an album: ${fundraiser.name}`);
    expect(giftEmail).toContain('Happy birthday!');
    expect(giftEmail).toContain('&#60;for you&#62;');
    expect(giftEmail).not.toContain('$20.00');

    // Its link plays the album at once, says who sent it and keeps the message.
    const token = linkIn(giftEmails[0]!)!;
    const link = purchaseLinkSchema.parse((await server.client().get(`/api/purchases/${token}`)).json);
    expect(link).toMatchObject({
      email: recipient,
      gift: { fromName: 'Ada Lovelace', message: 'Happy birthday!\nThis one is <for you>.' },
    });
    expect(link.tracks).toHaveLength(1);
    const stream = await server.client().get(link.tracks[0]!.src, { headers: { range: 'bytes=0-99' } });
    expect(stream.status).toBe(206);

    // Signed up with that address, the recipient has it in Your music; the giver does not.
    const library = async (email: string) => {
      const client = await verifiedUser(server, email);
      const answer = (await client.get('/api/music-library/purchases')).json as { results: { projectId: number }[] };
      return answer.results.map((album) => album.projectId);
    };
    expect(await library(recipient)).toEqual([fundraiser.id]);
    expect(await library(giver)).toEqual([]);
  });

  it('is refused to oneself, to the platform, and past a year, each with its message', async () => {
    expect(await intentProblems({ gift: gift('ADA@example.org') })).toEqual([
      ['gift.recipientEmail', donationMessages.giftToSelf],
    ]);
    expect(
      await intentProblems({ projectId: null, donationCents: 0, tipCents: 500, gift: gift('g@example.org') }),
    ).toEqual([['gift', donationMessages.giftToPlatform]]);
    expect(
      await intentProblems({ gift: gift('g@example.org', { recipientName: ' ', message: 'x'.repeat(501) }) }),
    ).toEqual([
      ['gift.recipientName', 'Recipient name is required.'],
      ['gift.message', 'Message cannot exceed 500 character(s).'],
    ]);
    // Days of the site's calendar, counted from its today: not the same date a year off, which is
    // no date on February 29, nor the 31st of this month next year, which on a 31st is the last
    // day allowed. Yesterday is past; 400 days ahead is past a year whatever the leap days, even
    // if the site's day turns meanwhile.
    const today = siteCalendarDate(Date.now(), server.deps.config.timeZone);
    expect(await intentProblems({ gift: gift('g@example.org', { deliverOn: addDays(today, -1) }) })).toEqual([
      ['gift.deliverOn', donationMessages.deliverOnPast],
    ]);
    expect(await intentProblems({ gift: gift('g@example.org', { deliverOn: addDays(today, 400) }) })).toEqual([
      ['gift.deliverOn', donationMessages.deliverOnTooLate],
    ]);

    // Signed in, the account's own address is oneself too, whatever the form's email says.
    const account = uniqueEmail('self');
    const client = await verifiedUser(server, account);
    const answer = await client.post('/api/transactions/create-payment-intent', {
      json: {
        name: 'Me',
        email: uniqueEmail('other'),
        donationCents: 2500,
        tipCents: 0,
        projectId: fundraiser.id,
        gift: gift(account),
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      formErrors: [{ field: 'gift.recipientEmail', message: donationMessages.giftToSelf }],
    });
  });

  it('sent later goes out on the morning of its day in the site time zone, once, and not after a refund', async () => {
    const timeZone = server.deps.config.timeZone;
    const later = siteCalendarDate(Date.now() + 40 * 24 * 60 * 60 * 1000, timeZone);
    const giver = uniqueEmail('later-giver');
    const recipient = uniqueEmail('later-recipient');
    const intent = await donate(server, {
      fundraiserId: fundraiser.id,
      email: giver,
      donationCents: 1500,
      gift: gift(recipient, { deliverOn: later }),
    });
    expect(donationRow(intent.paymentIntentId).giftDeliverOn).toBe(later);
    const giftJob = () =>
      server.db
        .select()
        .from(jobs)
        .all()
        .filter(
          (job) =>
            job.kind === GIFT_JOB && JSON.parse(job.payload).donationId === donationRow(intent.paymentIntentId).id,
        );
    expect(giftJob()).toHaveLength(1);
    // 08:00 where the site is, on that day.
    const morning = giftJob()[0]!.runAt;
    expect([siteCalendarDate(morning, timeZone), siteHour(morning, timeZone), morning.getUTCMinutes()]).toEqual([
      later,
      8,
      0,
    ]);
    // Until then the album is nobody's: not in the recipient's Your music, even with an account.
    const recipientAccount = await verifiedUser(server, recipient);
    const albums = async () =>
      ((await recipientAccount.get('/api/music-library/purchases')).json as { results: unknown[] }).results;
    expect(await albums()).toEqual([]);

    // Now: the receipt says when; the gift waits.
    await server.jobs.drain();
    expect(read(server.outbox.messages(giver)[0]!)).toContain('on the morning of');
    expect(server.outbox.messages(recipient).filter(isGiftEmail)).toHaveLength(0);

    // The day comes (the job is made due): one gift email, and a second run sends nothing more.
    server.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, giftJob()[0]!.id)).run();
    await server.jobs.drain();
    await server.jobs.drain();
    expect(server.outbox.messages(recipient).filter(isGiftEmail)).toHaveLength(1);
    expect(await albums()).toHaveLength(1);

    // Today's date is the same as none: it goes out at once. Today is read now, not when the test
    // began: the site's day may have turned since.
    const today = siteCalendarDate(Date.now(), timeZone);
    const now = await donate(server, {
      fundraiserId: fundraiser.id,
      email: uniqueEmail('today-giver'),
      gift: gift(uniqueEmail('today-recipient'), { deliverOn: today }),
    });
    expect(donationRow(now.paymentIntentId).giftDeliverOn).toBeNull();
  });
});

describe('a gift through Stripe', () => {
  let fake: FakeStripe;
  let stripe: TestServer;
  let album: Fundraiser;

  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = await startTestServer({ ...FAKE_STRIPE_KEYS, STRIPE_API_URL: fake.url, FEE_PERCENT: '2.9' });
    album = await createFundraiser(await verifiedUser(stripe, 'stripe-gift-band@example.org'), {
      publish: true,
      tracks: 1,
    });
  });

  afterAll(async () => {
    await stripe?.close();
    await fake?.close();
  });

  const deliver = (delivery: { payload: string; signature: string }) =>
    stripe.client().post('/api/stripe/webhook', {
      body: delivery.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
    });

  it('charges the cover at FEE_PERCENT, and sends the two emails once whoever reports the payment', async () => {
    const giver = uniqueEmail('stripe-giver');
    const recipient = uniqueEmail('stripe-recipient');
    const intent = await startDonation(stripe, {
      fundraiserId: album.id,
      email: giver,
      donationCents: 5000,
      tipCents: 500,
      coverFees: true,
      gift: { recipientName: 'Grace', recipientEmail: recipient, message: 'Enjoy' },
    });
    const rates = { basisPoints: 290, fixedCents: 30 };
    expect(intent.feeCoverCents).toBe(feeCoverCents(5000, 500, rates));
    expect(fake.intents.get(intent.paymentIntentId)).toMatchObject({
      amount: 5500 + intent.feeCoverCents,
      metadata: { feeCoverCents: String(intent.feeCoverCents) },
    });

    // Stripe's fee at 2.9 % + 30¢ of the whole charge: the charity still keeps the whole donation.
    const charge = 5500 + intent.feeCoverCents;
    fake.succeed(intent.paymentIntentId, Math.round((charge * 290) / 10_000) + 30);
    const event = fake.event('payment_intent.succeeded', intent.paymentIntentId);
    const answers = await Promise.all([
      deliver(event),
      deliver(event),
      stripe.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`),
      stripe.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const money = moneyOf(stripe.db, intent.paymentIntentId);
    expect(money.donatedCents - money.charityFeeCents).toBeGreaterThanOrEqual(5000);

    await Promise.all([stripe.jobs.drain(), stripe.jobs.drain()]);
    await stripe.jobs.drain();
    expect(stripe.outbox.messages(giver).filter(isReceipt)).toHaveLength(1);
    expect(stripe.outbox.messages(recipient).filter(isGiftEmail)).toHaveLength(1);
  });

  it('sends no gift email when the payment was refunded before the day came', async () => {
    const recipient = uniqueEmail('refunded-recipient');
    const later = siteCalendarDate(Date.now() + 10 * 24 * 60 * 60 * 1000, stripe.deps.config.timeZone);
    const intent = await startDonation(stripe, {
      fundraiserId: album.id,
      email: uniqueEmail('refunded-giver'),
      donationCents: 2000,
      gift: { recipientName: 'Grace', recipientEmail: recipient, deliverOn: later },
    });
    fake.succeed(intent.paymentIntentId, 88);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    stripe.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.kind, GIFT_JOB)).run();
    await stripe.jobs.drain();
    expect(stripe.outbox.messages(recipient)).toHaveLength(0);
  });

  it('sends the gift email after all when the refund that stopped it fails', async () => {
    const recipient = uniqueEmail('restored-recipient');
    const intent = await startDonation(stripe, {
      fundraiserId: album.id,
      email: uniqueEmail('restored-giver'),
      donationCents: 2000,
      gift: { recipientName: 'Grace', recipientEmail: recipient, message: 'Still yours' },
    });
    fake.succeed(intent.paymentIntentId, 74);
    expect((await deliver(fake.event('payment_intent.succeeded', intent.paymentIntentId))).status).toBe(200);
    // Refunded in full before the gift job ran: it sends nothing.
    expect((await deliver(fake.event('charge.refunded', intent.paymentIntentId))).status).toBe(200);
    await stripe.jobs.drain();
    expect(stripe.outbox.messages(recipient).filter(isGiftEmail)).toHaveLength(0);
    // The bank could not pay the refund back: the payment and the gift stand, and its email goes, once.
    const refund = fake.failRefund(fake.refundsOf(intent.paymentIntentId)[0]!.id);
    expect((await deliver(fake.event('charge.refund.updated', refund.id))).status).toBe(200);
    await stripe.jobs.drain();
    await stripe.jobs.drain();
    expect(stripe.outbox.messages(recipient).filter(isGiftEmail)).toHaveLength(1);
  });
});
