import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createPaymentIntent, fulfilPayment } from '../server/features/donations/service';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { testCard } from '../tests/fixtures/test-cards';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';

/** Issue 23: fulfilment through the money journal costs at most this many bare one-row transactions. */
const JOURNAL_TARGET_RATIO = 3;
const ROUNDS = 3;

/**
 * Donation fulfilments per second (issues 10 and 23): each one a pending donation made paid by the
 * test provider and fulfilled by fulfilPayment (the conditional update, the charge and its fee in
 * the money journal, the purchase and the receipt job, in one transaction, with
 * synchronous=FULL), next to a bare loop of single-row insert transactions on the same database,
 * round for round. Three rounds: the median ratio, the spread and the worst round.
 */
export async function benchDonationFulfilment(count = 1000) {
  const server = await startTestServer();
  const owner = await verifiedUser(server, 'bench-owner@example.org');
  const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  const { deps } = server;
  if (deps.payments.kind !== 'test') throw new Error('the benchmark runs on the test provider');
  const input = {
    name: 'Bench Fan',
    donationCents: 1000,
    tipCents: 100,
    projectId: fundraiser.id,
    coverFees: false,
    gift: null,
    source: null,
  };
  server.sqlite.exec('CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, email TEXT NOT NULL, cents INTEGER NOT NULL)');
  const insert = server.sqlite.prepare('INSERT INTO bench_rows (email, cents) VALUES (?, ?)');

  const rounds: { bare: number; fulfilment: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Intents and card payments first: the figure is fulfilment alone.
    const intents = [];
    for (let i = 0; i < count; i++) {
      const intent = await createPaymentIntent(deps, null, { ...input, email: `fan${round}-${i}@example.org` });
      deps.payments.confirm(intent.clientSecret, testCard());
      intents.push(intent.paymentIntentId);
    }
    const bareStart = performance.now();
    for (let i = 0; i < count; i++) server.sqlite.transaction(() => insert.run(`fan${i}@example.org`, 1000))();
    const bare = (performance.now() - bareStart) / 1000;
    const start = performance.now();
    for (const id of intents) await fulfilPayment(deps, id, 'http://localhost:3000');
    rounds.push({ bare, fulfilment: (performance.now() - start) / 1000 });
  }
  const succeeded = deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM donations WHERE status = 'succeeded'`);
  if (succeeded.n !== count * ROUNDS) throw new Error(`expected ${count * ROUNDS} fulfilled, found ${succeeded.n}`);
  const journalled = deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM money_journal WHERE kind = 'charge'`);
  if (journalled.n !== count * ROUNDS) throw new Error(`expected ${count * ROUNDS} charges, found ${journalled.n}`);

  const ratios = rounds.map((one) => one.fulfilment / one.bare).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const worst = ratios.at(-1)!;
  const synchronous = server.sqlite.pragma('synchronous', { simple: true });
  console.log(
    `\nDonation fulfilment: ${count} payments a round, ${ROUNDS} rounds, SQLite synchronous=${synchronous === 2 ? 'FULL' : synchronous}`,
  );
  rounds.forEach((one, i) =>
    console.log(
      `  round ${i + 1}: one-row insert transactions ${(count / one.bare).toFixed(0).padStart(6)}/s, ` +
        `fulfilPayment through the journal ${(count / one.fulfilment).toFixed(0).padStart(6)}/s ` +
        `(${(one.fulfilment / one.bare).toFixed(2)}× the cost)`,
    ),
  );
  console.log(
    `  cost vs a bare one-row transaction: median ${median.toFixed(2)}×, spread ${ratios[0]!.toFixed(2)}–${worst.toFixed(2)}×, ` +
      `worst ${worst.toFixed(2)}× (target ≤ ${JOURNAL_TARGET_RATIO}×: ${worst <= JOURNAL_TARGET_RATIO ? 'met' : 'NOT met'})`,
  );
  await server.close();
}
