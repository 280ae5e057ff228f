import fs from 'node:fs';
import { moneyOf } from '../fixtures/money-journal';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEE_RATES } from '../../shared/fee-cover';
import { donations, jobs, purchases } from '../../server/db/schema';
import { formatEin } from '../../shared/ein';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { TEST_CARDS } from '../../shared/donation-rules';
import {
  paymentConfigSchema,
  purchaseLinkSchema,
  testIntentStatusSchema,
  transactionSummarySchema,
} from '../../shared/answers/donations';
import { composeJobs } from '../../server/compose';
import type { Mailer } from '../../server/infra/email/mailer';
import { donate, payWithTestCard, startDonation } from '../fixtures/donations';
import { testCard } from '../fixtures/test-cards';
import { createFundraiser } from '../fixtures/fundraisers';
import { fieldErrors, registerUser, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Donations with the built-in test provider (issue 10): the money rules, fulfilment exactly once,
// the success page's lookup, the receipt and its download link, and the album in Your music.

const server = useTestServer();

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

/** A published fundraiser with one track and the fixtures' $5.00 minimum. */
async function publishedFundraiser() {
  const owner = await verifiedUser(server, uniqueEmail('owner'));
  const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  return { owner, fundraiser };
}

function intentRequest(projectId: number | null, overrides: Record<string, unknown> = {}) {
  return {
    json: { name: 'June Carter', email: 'june@example.org', donationCents: 1000, tipCents: 0, projectId, ...overrides },
  };
}

function donationOf(paymentIntentId: string) {
  return server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
}

describe('GET /api/payments/config', () => {
  it('names the built-in test provider when no Stripe keys are set', async () => {
    const answer = await server.client().get('/api/payments/config');
    expect(paymentConfigSchema.parse(answer.json)).toEqual({ provider: 'test', feeRates: DEFAULT_FEE_RATES });
  });
});

describe('POST /api/transactions/create-payment-intent', () => {
  it("refuses what the donation rules refuse, with the spec's messages", async () => {
    const { fundraiser } = await publishedFundraiser();
    const client = server.client();
    const errorsOf = async (overrides: Record<string, unknown>) => {
      const answer = await client.post(
        '/api/transactions/create-payment-intent',
        intentRequest(fundraiser.id, overrides),
      );
      expect(answer.status, answer.text).toBe(400);
      return fieldErrors(answer.json);
    };
    expect(await errorsOf({ name: '  ' })).toEqual({ name: 'Name is required.' });
    expect(await errorsOf({ name: 'x'.repeat(101) })).toEqual({ name: 'Name cannot exceed 100 character(s).' });
    expect(await errorsOf({ email: 'not-an-email' })).toEqual({ email: 'Please enter a valid email.' });
    expect(await errorsOf({ donationCents: 499 })).toEqual({ donationCents: 'Donation must be at least $5.00' });
    expect(await errorsOf({ donationCents: 0 })).toEqual({ donationCents: 'Donation must be at least $5.00' });
    expect(await errorsOf({ donationCents: -1 })).toEqual({ donationCents: 'Donation cannot be negative' });
    expect(await errorsOf({ donationCents: 10_000_001 })).toEqual({
      donationCents: 'Donation cannot exceed $100,000.00',
    });
    expect(await errorsOf({ tipCents: 10_000_001 })).toEqual({ tipCents: 'Tip cannot exceed $100,000.00' });
    expect(await errorsOf({ tipCents: -5 })).toEqual({ tipCents: 'Tip cannot be negative' });
    // No tip chosen: the spec's message, as the donate page says it.
    expect(await errorsOf({ tipCents: undefined })).toEqual({ tipCents: 'Please choose a tip amount (can be zero)' });
    expect(await errorsOf({ tipCents: null })).toEqual({ tipCents: 'Please choose a tip amount (can be zero)' });
    expect(await errorsOf({ donationCents: undefined })).toEqual({ donationCents: 'Donation is required.' });
    expect(await errorsOf({ donationCents: 550.5, tipCents: 0.25 })).toEqual({
      donationCents: 'Donation must be a whole number of cents.',
      tipCents: 'Tip must be a whole number of cents.',
    });
    // Bounds are inclusive.
    for (const donationCents of [500, 10_000_000]) {
      const answer = await client.post(
        '/api/transactions/create-payment-intent',
        intentRequest(fundraiser.id, { donationCents, tipCents: 10_000_000 }),
      );
      expect(answer.status, answer.text).toBe(200);
    }
    expect(server.db.select().from(donations).where(eq(donations.fundraiserId, fundraiser.id)).all()).toHaveLength(2);
  });

  it('takes no donation for a draft, a deleted or an unknown fundraiser', async () => {
    const owner = await verifiedUser(server, uniqueEmail('drafter'));
    const draft = await createFundraiser(owner, { tracks: 1 });
    const deleted = await createFundraiser(owner, { tracks: 1, publish: true });
    expect((await owner.delete(`/api/fundraisers/${deleted.id}`)).status).toBe(200);
    for (const projectId of [draft.id, deleted.id, 999_999]) {
      const answer = await owner.post('/api/transactions/create-payment-intent', intentRequest(projectId));
      expect(answer.status).toBe(404);
    }
  });

  it('takes a gift to the platform as a tip of at least $1.00 and no donation', async () => {
    const client = server.client();
    const tooSmall = await client.post(
      '/api/transactions/create-payment-intent',
      intentRequest(null, { donationCents: 0, tipCents: 99 }),
    );
    expect(fieldErrors(tooSmall.json)).toEqual({ tipCents: 'Tip must be at least $1.00' });
    const withDonation = await client.post(
      '/api/transactions/create-payment-intent',
      intentRequest(null, { donationCents: 500, tipCents: 500 }),
    );
    expect(withDonation.status).toBe(400);
    const gift = await donate(server, {
      fundraiserId: null,
      email: uniqueEmail('patron'),
      donationCents: 0,
      tipCents: 2500,
    });
    const row = donationOf(gift.paymentIntentId);
    expect(row).toMatchObject({ status: 'succeeded', fundraiserId: null, amountCents: 0, tipCents: 2500 });
    // The whole fee is the platform's: nothing of the payment is a charity's.
    expect(moneyOf(server.db, gift.paymentIntentId)).toMatchObject({
      donatedCents: 0,
      charityFeeCents: 0,
      tipKeptCents: 2500,
    });
    expect(server.db.select().from(purchases).where(eq(purchases.donationId, row.id)).all()).toEqual([]);
    const summary = transactionSummarySchema.parse(
      (await client.get(`/api/transactions/query?paymentIntentId=${gift.paymentIntentId}`)).json,
    );
    expect(summary).toMatchObject({ donationCents: 0, tipCents: 2500, taxDeductibleCents: 0, project: null });
  });
});

describe('paying with the test provider', () => {
  it('fulfils a paid donation once: the donation with its fee, the purchase, the receipt with a download link', async () => {
    const { fundraiser } = await publishedFundraiser();
    const email = uniqueEmail('fan');
    const intent = await startDonation(server, {
      fundraiserId: fundraiser.id,
      email,
      donationCents: 2500,
      tipCents: 500,
    });
    const guest = server.client();
    const query = () => guest.get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`);
    expect((await query()).status).toBe(404);
    expect(donationOf(intent.paymentIntentId).status).toBe('pending');

    const paid = await payWithTestCard(server, intent.clientSecret);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toEqual({ status: 'succeeded', paymentIntentId: intent.paymentIntentId });
    const row = donationOf(intent.paymentIntentId);
    // 2.2 % + 30¢ of $30.00 is $0.96; the charity carries 25/30 of it.
    expect(row).toMatchObject({ status: 'succeeded', minimumCents: 500 });
    expect(moneyOf(server.db, intent.paymentIntentId)).toMatchObject({
      feeCents: 96,
      feePending: false,
      charityFeeCents: 80,
    });
    expect(formatEin(row.charityEin!)).toBe(fundraiser.charityEin);

    const summary = transactionSummarySchema.parse((await query()).json);
    expect(summary).toMatchObject({
      donationCents: 2500,
      tipCents: 500,
      taxDeductibleCents: 2000,
      minimumCents: 500,
      email,
      project: {
        id: fundraiser.id,
        name: fundraiser.name,
        urlSlug: fundraiser.urlSlug,
        artistName: fundraiser.artist.name,
        image: fundraiser.image ?? null,
      },
      charity: { name: 'American National Red Cross', ein: fundraiser.charityEin },
    });
    const again = await payWithTestCard(server, intent.clientSecret);
    expect(again.status).toBe(409);

    // The total raised counts the donation, not the tip.
    const page = fundraiserSchema.parse((await guest.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(page).toMatchObject({ totalRaised: 2500, donationCount: 1 });

    // The receipt: once, with the amounts, the charity and a link that downloads the album.
    await server.jobs.drain();
    await server.jobs.drain();
    const receipts = server.outbox.messages(email);
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!.replace(/=\r?\n/g, '');
    expect(receipt).toContain(`Subject: Your donation to ${fundraiser.name}`);
    for (const text of ['Donation: $25.00', 'Total: $30.00', 'Tax-deductible part: $20.00', fundraiser.charityEin]) {
      expect(receipt).toContain(text);
    }
    const token = receipt.match(/\/purchases\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();
    const link = purchaseLinkSchema.parse((await guest.get(`/api/purchases/${token}`)).json);
    expect(link.project).toMatchObject({ id: fundraiser.id, name: fundraiser.name });
    const zip = await guest.get(`/api/purchases/${token}/download`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect((await guest.get(`/api/purchases/${'x'.repeat(43)}`)).status).toBe(404);

    // A guest who signs up and verifies the same email finds the album in Your music.
    const buyer = await verifiedUser(server, email);
    const library = (await buyer.get('/api/music-library/purchases')).json as { results: { projectId: number }[] };
    expect(library.results.map((album) => album.projectId)).toEqual([fundraiser.id]);
  });

  it('declines the declined card, keeps the intent payable and then takes another card', async () => {
    const { fundraiser } = await publishedFundraiser();
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('declined') });
    const declined = await payWithTestCard(server, intent.clientSecret, TEST_CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.json).toEqual({ code: 'OTHER', message: 'Your card was declined.' });
    const status = testIntentStatusSchema.parse(
      (await server.client().get(`/api/test-payments/intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`))
        .json,
    );
    expect(status).toEqual({
      status: 'requires_payment_method',
      paymentIntentId: intent.paymentIntentId,
      lastError: 'Your card was declined.',
    });
    expect(donationOf(intent.paymentIntentId).status).toBe('pending');
    expect((await payWithTestCard(server, intent.clientSecret)).status).toBe(200);
    expect(donationOf(intent.paymentIntentId).status).toBe('succeeded');
  });

  it('gives ten confirmations at once one donation, one purchase and one receipt', async () => {
    const { fundraiser } = await publishedFundraiser();
    const email = uniqueEmail('eager');
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email });
    const answers = await Promise.all(Array.from({ length: 10 }, () => payWithTestCard(server, intent.clientSecret)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);
    // And the success page's lookups, at once too.
    await Promise.all(
      Array.from({ length: 5 }, () =>
        server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`),
      ),
    );
    const row = donationOf(intent.paymentIntentId);
    expect(server.db.select().from(purchases).where(eq(purchases.donationId, row.id)).all()).toHaveLength(1);
    const receiptJobs = server.db
      .select()
      .from(jobs)
      .all()
      .filter((job) => job.kind === 'donation-receipt' && JSON.parse(job.payload).donationId === row.id);
    expect(receiptJobs).toHaveLength(1);
    await server.jobs.drain();
    expect(server.outbox.messages(email)).toHaveLength(1);
  });

  it('answers 404 for an unknown client secret and 400 for a card that is not text', async () => {
    const unknown = await payWithTestCard(server, 'tpi_nothing_secret_nothing');
    expect(unknown.status).toBe(404);
    const { fundraiser } = await publishedFundraiser();
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('typo') });
    const malformed = await server.client().post('/api/test-payments/confirm', {
      json: { clientSecret: intent.clientSecret, cardNumber: 4242, cvc: null },
    });
    expect(malformed.status).toBe(400);
    expect(fieldErrors(malformed.json)).toEqual({
      cardNumber: 'Card number is required.',
      expiry: 'Expiry is required.',
      cvc: 'CVC is required.',
    });
  });

  it("refuses, in Stripe's words, a number failing the Luhn check, a past expiry and a short code, and the intent stays payable", async () => {
    const { fundraiser } = await publishedFundraiser();
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('card-typo') });
    const now = new Date();
    const yy = (years: number) => String((now.getUTCFullYear() + years) % 100).padStart(2, '0');
    // Two months back where the month ends last (UTC−12, as the checks read it): last month is
    // still this month somewhere on Earth for half a day. Stripe names a past year apart from a
    // past month of this year.
    const there = new Date(now.getTime() - 12 * 60 * 60 * 1000);
    const past = new Date(Date.UTC(there.getUTCFullYear(), there.getUTCMonth() - 2, 1));
    const twoMonthsAgo = `${String(past.getUTCMonth() + 1).padStart(2, '0')}/${String(past.getUTCFullYear() % 100).padStart(2, '0')}`;
    const pastMessage =
      past.getUTCFullYear() < there.getUTCFullYear()
        ? "Your card's expiration year is in the past."
        : "Your card's expiration date is in the past.";
    const refusals: [Partial<ReturnType<typeof testCard>>, string][] = [
      [{ cardNumber: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
      [{ cardNumber: '4242424242424242424242' }, 'Your card number is invalid.'],
      [{ cardNumber: '4242-4242-4242-4242' }, 'Your card number is invalid.'],
      [{ cardNumber: '4242 4242 4242' }, 'Your card number is incomplete.'],
      [{ cardNumber: '' }, 'Your card number is incomplete.'],
      // Two years back: December of last year is still this month in UTC−12 on New Year's morning.
      [{ expiry: `12/${yy(-2)}` }, "Your card's expiration year is in the past."],
      [{ expiry: twoMonthsAgo }, pastMessage],
      [{ expiry: '12/' }, "Your card's expiration date is incomplete."],
      [{ expiry: `13/${yy(3)}` }, "Your card's expiration month is invalid."],
      [{ cvc: '12' }, "Your card's security code is incomplete."],
      [{ cvc: '' }, "Your card's security code is incomplete."],
      [{ cvc: '12345' }, "Your card's security code is invalid."],
      // Stripe checks the number first.
      [{ cardNumber: '4242 4242 4242 4241', cvc: '1' }, 'Your card number is invalid.'],
    ];
    for (const [change, message] of refusals) {
      const answer = await server.client().post('/api/test-payments/confirm', {
        json: { clientSecret: intent.clientSecret, ...testCard(), ...change },
      });
      expect([answer.status, answer.json], JSON.stringify(change)).toEqual([402, { code: 'OTHER', message }]);
    }
    const status = testIntentStatusSchema.parse(
      (await server.client().get(`/api/test-payments/intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`))
        .json,
    );
    expect(status).toMatchObject({ status: 'requires_payment_method', lastError: null });
    expect(donationOf(intent.paymentIntentId).status).toBe('pending');

    // This month's card is still good, and so are the usual lengths: 13 to 19 digits, 4-digit codes.
    const thisMonth = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${yy(0)}`;
    const cards = ['4222222222222', '3782 822463 10005', '6205 5000 0000 0000 004', TEST_CARDS.succeeds];
    for (const cardNumber of cards) {
      const paying = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('lengths') });
      const paid = await server.client().post('/api/test-payments/confirm', {
        json: { clientSecret: paying.clientSecret, cardNumber, expiry: thisMonth, cvc: '1234' },
      });
      expect(paid.status, `${cardNumber}: ${paid.text}`).toBe(200);
    }
  });

  it('retries the receipt when mail fails and sends it once, with a link that works for 30 days', async () => {
    const { fundraiser } = await publishedFundraiser();
    const email = uniqueEmail('mail-down');
    const intent = await donate(server, { fundraiserId: fundraiser.id, email });
    const donation = donationOf(intent.paymentIntentId);
    const purchase = () => server.db.select().from(purchases).where(eq(purchases.donationId, donation.id)).get()!;
    const receiptJob = () =>
      server.db
        .select()
        .from(jobs)
        .all()
        .find((job) => job.kind === 'donation-receipt' && JSON.parse(job.payload).donationId === donation.id)!;

    // The mail can't go: where the outbox mailer writes is a file, not a folder.
    const outbox = server.config.outboxDir;
    fs.renameSync(outbox, `${outbox}-away`);
    fs.writeFileSync(outbox, 'not a folder');
    try {
      await server.jobs.drain();
    } finally {
      fs.rmSync(outbox);
      fs.renameSync(`${outbox}-away`, outbox);
    }
    expect(receiptJob()).toMatchObject({ status: 'queued', attempts: 1 });
    expect(donationOf(intent.paymentIntentId).receiptSentAt).toBeNull();
    expect(server.outbox.messages(email)).toHaveLength(0);
    const firstLinkHash = purchase().downloadTokenHash;

    await server.jobs.drain({ skipBackoff: true });
    await server.jobs.drain({ skipBackoff: true });
    expect(receiptJob()).toMatchObject({ status: 'done', attempts: 2 });
    const receipts = server.outbox.messages(email);
    expect(receipts).toHaveLength(1);
    // Every attempt sends the same message: the link made for the first is the one that works,
    // and only its hash is kept once the receipt went.
    expect(purchase().downloadTokenHash).toBe(firstLinkHash);
    expect(purchase().receiptToken).toBeNull();
    const token = receipts[0]!.replace(/=\r?\n/g, '').match(/\/purchases\/([A-Za-z0-9_-]{43})/)![1]!;
    const guest = server.client();
    expect((await guest.get(`/api/purchases/${token}`)).status).toBe(200);
    const expiresAt = purchase().downloadExpiresAt!.getTime();
    expect(Math.abs(expiresAt - Date.now() - 30 * 24 * 60 * 60 * 1000)).toBeLessThan(60_000);

    // Thirty days on, the link has expired (the album stays in Your music for an account).
    server.db
      .update(purchases)
      .set({ downloadExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchases.donationId, donation.id))
      .run();
    expect((await guest.get(`/api/purchases/${token}`)).status).toBe(404);
    expect((await guest.get(`/api/purchases/${token}/download`)).status).toBe(404);
    const buyer = await verifiedUser(server, email);
    const library = (await buyer.get('/api/music-library/purchases')).json as { results: { projectId: number }[] };
    expect(library.results.map((album) => album.projectId)).toEqual([fundraiser.id]);
  });

  it('takes a test payment only together with its fulfilment', async () => {
    const { fundraiser } = await publishedFundraiser();
    const intent = await startDonation(server, { fundraiserId: fundraiser.id, email: uniqueEmail('atomic') });
    // Fulfilment breaks half-way (as if the process died there): the payment must not stand alone.
    server.sqlite.exec(
      `CREATE TEMP TRIGGER break_fulfilment BEFORE INSERT ON purchases BEGIN SELECT RAISE(ABORT, 'disk gone'); END`,
    );
    try {
      expect((await payWithTestCard(server, intent.clientSecret)).status).toBe(500);
    } finally {
      server.sqlite.exec('DROP TRIGGER temp.break_fulfilment');
    }
    const status = await server.client().get(`/api/test-payments/intent?clientSecret=${intent.clientSecret}`);
    expect(testIntentStatusSchema.parse(status.json).status).toBe('requires_payment_method');
    expect(donationOf(intent.paymentIntentId).status).toBe('pending');
    expect((await payWithTestCard(server, intent.clientSecret)).status).toBe(200);
    expect(donationOf(intent.paymentIntentId).status).toBe('succeeded');
  });

  it('sends a receipt once when the mail went but its sending was not recorded, and its link works', async () => {
    const { fundraiser } = await publishedFundraiser();
    const email = uniqueEmail('lost-answer');
    const intent = await donate(server, { fundraiserId: fundraiser.id, email });
    // The mail goes out and then the job dies before recording it (a crash, a dropped SMTP
    // connection after the server took the message): the job is retried.
    let cutOff = true;
    const mailer: Mailer = {
      async send(message) {
        await server.deps.mailer.send(message);
        if (cutOff) {
          cutOff = false;
          throw new Error('connection lost after the message was sent');
        }
      },
    };
    const jobs = composeJobs({ ...server.deps, mailer }, server.processes);
    await jobs.drain({ skipBackoff: true });
    expect(cutOff).toBe(false);
    expect(donationOf(intent.paymentIntentId).receiptSentAt).not.toBeNull();
    const receipts = server.outbox.messages(email);
    expect(receipts).toHaveLength(1);
    const token = receipts[0]!.replace(/=\r?\n/g, '').match(/\/purchases\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await server.client().get(`/api/purchases/${token}`)).status).toBe(200);
  });

  it("remembers a logged-in donor's account on the donation", async () => {
    const { fundraiser } = await publishedFundraiser();
    const email = uniqueEmail('member');
    const member = server.client();
    await registerUser(member, email);
    const answer = await member.post(
      '/api/transactions/create-payment-intent',
      intentRequest(fundraiser.id, { email }),
    );
    const { paymentIntentId } = answer.json as { paymentIntentId: string };
    expect(donationOf(paymentIntentId).userId).not.toBeNull();
  });
});
