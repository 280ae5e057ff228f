import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createPaymentIntent, fulfilPayment } from '../server/features/donations/service';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { testCard } from '../tests/fixtures/test-cards';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';

/**
 * Donation fulfilments per second (issue 10): each one a pending donation made paid by the test
 * provider and fulfilled by fulfilPayment (the conditional update, the purchase and the receipt
 * job, in one transaction, with synchronous=FULL), next to a bare loop of single-row insert
 * transactions on the same database in the same run.
 */
export async function benchDonationFulfilment(count = 2000) {
  const server = await startTestServer();
  const owner = await verifiedUser(server, 'bench-owner@example.org');
  const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  const { deps } = server;
  if (deps.payments.kind !== 'test') throw new Error('the benchmark runs on the test provider');
  const input = { name: 'Bench Fan', donationCents: 1000, tipCents: 100, projectId: fundraiser.id };

  // Intents and card payments first: the figure is fulfilment alone.
  const intents = [];
  for (let i = 0; i < count; i++) {
    const intent = await createPaymentIntent(deps, null, { ...input, email: `fan${i}@example.org` });
    deps.payments.confirm(intent.clientSecret, testCard());
    intents.push(intent.paymentIntentId);
  }

  server.sqlite.exec('CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, email TEXT NOT NULL, cents INTEGER NOT NULL)');
  const insert = server.sqlite.prepare('INSERT INTO bench_rows (email, cents) VALUES (?, ?)');
  const bareStart = performance.now();
  for (let i = 0; i < count; i++) server.sqlite.transaction(() => insert.run(`fan${i}@example.org`, 1000))();
  const bareSeconds = (performance.now() - bareStart) / 1000;

  const start = performance.now();
  for (const id of intents) await fulfilPayment(deps, id, 'http://localhost:3000');
  const seconds = (performance.now() - start) / 1000;
  const succeeded = deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM donations WHERE status = 'succeeded'`);
  if (succeeded.n !== count) throw new Error(`expected ${count} fulfilled, found ${succeeded.n}`);

  const synchronous = server.sqlite.pragma('synchronous', { simple: true });
  console.log(
    `\nDonation fulfilment: ${count} payments, SQLite synchronous=${synchronous === 2 ? 'FULL' : synchronous}`,
  );
  console.log(`  baseline: one-row insert transactions   ${(count / bareSeconds).toFixed(0).padStart(7)}/s`);
  console.log(
    `  fulfilPayment (donation, purchase, job) ${(count / seconds).toFixed(0).padStart(7)}/s  ` +
      `(${(bareSeconds / seconds).toFixed(2)}× the baseline)`,
  );
  await server.close();
}
