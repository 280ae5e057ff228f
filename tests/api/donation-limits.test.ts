import { beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/answers/api';
import { paymentIntentSchema } from '../../shared/answers/donations';
import { TEST_CARDS } from '../../shared/donation-rules';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { createFundraiser } from '../fixtures/fundraisers';
import { testCard } from '../fixtures/test-cards';
import { type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Card testing (issue 22): the three payment calls a script cycling stolen cards would make are
// limited per client address and per donor email (server/features/donations/throttles.ts), and a
// real donor (a few declined tries, the success page's lookups) never meets a limit.

const server = useTestServer();
let fundraiser: Fundraiser;

beforeAll(async () => {
  const owner = await verifiedUser(server, 'owner@limits.test');
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
});

let counter = 0;
const uniqueEmail = () => `donor-${++counter}@limits.test`;

async function intent(client: TestClient, email = uniqueEmail()) {
  return client.post('/api/transactions/create-payment-intent', {
    json: { name: 'A Fan', email, donationCents: 1000, tipCents: 0, projectId: fundraiser.id },
  });
}

async function paidIntent(client: TestClient, email = uniqueEmail()) {
  const answer = await intent(client, email);
  expect(answer.status, answer.text).toBe(200);
  return paymentIntentSchema.parse(answer.json);
}

function pay(client: TestClient, clientSecret: string, cardNumber: string = TEST_CARDS.declined) {
  return client.post('/api/test-payments/confirm', { json: { clientSecret, ...testCard(cardNumber) } });
}

/** A 429 RATE_LIMITED that says when to come back, in its message and its Retry-After (seconds). */
function expectLimited(answer: { status: number; json: unknown; headers: Headers }, message: string, within: number) {
  expect(answer.status).toBe(429);
  const body = apiErrorSchema.parse(answer.json);
  expect(body.code).toBe('RATE_LIMITED');
  expect(body.message).toMatch(new RegExp(`^${message} Please try again in \\d+ minutes?\\.$`));
  const seconds = Number(answer.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(within);
}

describe('POST /api/transactions/create-payment-intent', () => {
  it('makes 20 intents for one address in 10 minutes, then refuses it alone', async () => {
    const client = server.client();
    for (let n = 0; n < 20; n++) expect((await intent(client)).status).toBe(200);
    expectLimited(await intent(client), 'Too many payment attempts.', 10 * 60);
    expect((await intent(server.client())).status).toBe(200);
  });

  it('counts the addresses of one IPv6 network (a /64, what one subscriber is given) as one address', async () => {
    // A script that takes a new address of its /64 for each intent is still one client…
    for (let n = 1; n <= 20; n++)
      expect((await intent(server.client(`2001:db8:5:7::${n.toString(16)}`))).status).toBe(200);
    expectLimited(await intent(server.client('2001:db8:5:7:ffff:1:2:3')), 'Too many payment attempts.', 10 * 60);
    // …and the same address written out in full too; the next network is another client.
    expectLimited(
      await intent(server.client('2001:0DB8:0005:0007:0000:0000:0000:0001')),
      'Too many payment attempts.',
      10 * 60,
    );
    expect((await intent(server.client('2001:db8:5:8::1'))).status).toBe(200);
  });

  it('makes 10 intents for one email in an hour, from anywhere, then refuses that email alone', async () => {
    const email = uniqueEmail();
    for (let n = 0; n < 10; n++) expect((await intent(server.client(), email)).status).toBe(200);
    expectLimited(await intent(server.client(), email), 'Too many payment attempts.', 60 * 60);
    expect((await intent(server.client())).status).toBe(200);
  });
});

describe('POST /api/test-payments/confirm', () => {
  it('lets a donor whose card was declined three times pay with another', async () => {
    const donor = server.client();
    const { clientSecret } = await paidIntent(donor);
    for (let n = 0; n < 3; n++) expect((await pay(donor, clientSecret)).status).toBe(402);
    expect((await pay(donor, clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
  });

  it('does not count mistyped cards (Luhn, past expiry, short code), which never reach a bank', async () => {
    const donor = server.client();
    const { clientSecret } = await paidIntent(donor);
    const typos = [
      { ...testCard('4242 4242 4242 4241') },
      { ...testCard(), expiry: '01/20' },
      { ...testCard(), cvc: '1' },
    ];
    for (let n = 0; n < 4; n++) {
      for (const card of typos) {
        expect((await donor.post('/api/test-payments/confirm', { json: { clientSecret, ...card } })).status).toBe(402);
      }
    }
    expect((await pay(donor, clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
  });

  it("stops a script cycling cards on one donor's intent after 5 declines, from any address", async () => {
    const email = uniqueEmail();
    const tester = server.client();
    const { clientSecret } = await paidIntent(tester, email);
    for (let n = 0; n < 5; n++) expect((await pay(tester, clientSecret)).status).toBe(402);
    // The card that would pay is not even tried, here or from another address with that email.
    expectLimited(await pay(tester, clientSecret, TEST_CARDS.succeeds), 'Too many declined payments.', 60 * 60);
    const elsewhere = server.client();
    const again = await paidIntent(elsewhere, email);
    expectLimited(await pay(elsewhere, again.clientSecret, TEST_CARDS.succeeds), 'Too many declined payments.', 3600);
    // Another donor is not held up.
    const other = server.client();
    expect((await pay(other, (await paidIntent(other)).clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
  });

  it('stops an address after 10 declines an hour, whatever emails it gives', async () => {
    const tester = server.client();
    for (let n = 0; n < 10; n++) {
      expect((await pay(tester, (await paidIntent(tester)).clientSecret)).status).toBe(402);
    }
    const next = await paidIntent(tester);
    expectLimited(await pay(tester, next.clientSecret, TEST_CARDS.succeeds), 'Too many declined payments.', 3600);
    // A guessed client secret names no payment, and counts for its address too.
    const guesser = server.client();
    for (let n = 0; n < 10; n++) expect((await pay(guesser, `tpi_x_secret_${n}`)).status).toBe(404);
    expect((await pay(guesser, 'tpi_x_secret_10')).status).toBe(429);
  });

  it('limits a burst of parallel declines like a sequence of them', async () => {
    const tester = server.client();
    const { clientSecret } = await paidIntent(tester);
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => pay(tester, clientSecret)))).map(
      (answer) => answer.status,
    );
    expect(statuses.filter((status) => status === 402)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('does not count a paid card, nor a second click on a paid intent', async () => {
    const email = uniqueEmail();
    const donor = server.client();
    for (let n = 0; n < 6; n++) {
      const { clientSecret } = await paidIntent(donor, email);
      expect((await pay(donor, clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
      expect((await pay(donor, clientSecret, TEST_CARDS.succeeds)).status).toBe(409);
    }
  });
});

describe('GET /api/transactions/query', () => {
  const lookUp = (client: TestClient, paymentIntentId: string) =>
    client.get(`/api/transactions/query?paymentIntentId=${encodeURIComponent(paymentIntentId)}`);

  it("answers a success page's four tries and reloads, and stops an address after 60 lookups in 10 minutes", async () => {
    const donor = server.client();
    const { clientSecret, paymentIntentId } = await paidIntent(donor);
    for (let n = 0; n < 4; n++) expect((await lookUp(donor, paymentIntentId)).status).toBe(404);
    expect((await pay(donor, clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
    for (let n = 0; n < 4; n++) expect((await lookUp(donor, paymentIntentId)).status).toBe(200);
    const scanner = server.client();
    for (let n = 0; n < 60; n++) expect((await lookUp(scanner, `tpi_guess_${n}`)).status).toBe(404);
    expectLimited(await lookUp(scanner, paymentIntentId), 'Too many payment attempts.', 10 * 60);
    expect((await lookUp(server.client(), paymentIntentId)).status).toBe(200);
  });

  it("stops lookups of one donor's payment after 20 in 10 minutes, from any address", async () => {
    const { clientSecret, paymentIntentId } = await paidIntent(server.client());
    expect((await pay(server.client(), clientSecret, TEST_CARDS.succeeds)).status).toBe(200);
    for (let n = 0; n < 20; n++) expect((await lookUp(server.client(), paymentIntentId)).status).toBe(200);
    expectLimited(await lookUp(server.client(), paymentIntentId), 'Too many payment attempts.', 10 * 60);
  });
});
