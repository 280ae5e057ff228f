import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { users } from '../server/db/schema';
import { siteCalendarDate } from '../shared/site-dates';
import { addDays } from '../server/db/site-days';
import { fundraiserInsight } from '../server/features/insight/service';
import { journalPaidDonations } from '../tests/fixtures/donations';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import {
  adminClient,
  startTestServer,
  type TestClient,
  type TestServer,
  verifiedUser,
} from '../tests/fixtures/test-server';
import { fmt, type Percentiles, seeded, timeEach } from './measure';
import { timeSequentialGets } from './sequential-client';

// Issue 29: a fundraiser's insight answer with 100,000 donations over the last year and a year
// of daily counts (page views by five sources, previews, streams, downloads in three formats,
// embed views and plays, shares), beside 50 other fundraisers' year of counts. Timed in process
// (the service: the SQL and the days) and over HTTP (the whole request, asked from another
// process), next to a baseline from the same run: GET /api/fundraisers/{id}, whose total reads the same index end to end.

const DONATIONS = 100_000;
const YEAR_DAYS = 365;
const RUNS = 300;

/**
 * `runs` GETs of `path` as `client`, one after another, from another process (the server's thread
 * keeps to the server's work), `between(i)` run here before every 10th.
 */
function timeRequests(
  server: TestServer,
  client: TestClient,
  path: string,
  runs: number,
  between?: (i: number) => void,
): Promise<Percentiles> {
  const headers = { cookie: client.cookieHeader(), 'accept-encoding': 'br, gzip' };
  return timeSequentialGets({ url: `${server.baseUrl}${path}`, headers, runs, pauseEvery: 10 }, between);
}

/**
 * The benchmark's data on a fresh server: the fundraiser (its owner's) with 100,000 donations
 * over the last year, and a year of daily counts for it and 50 others.
 */
export async function seedInsightYear(server: TestServer) {
  const owner = await verifiedUser(server, 'insight-bench@example.org');
  const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  const others: { id: number }[] = [];
  for (let i = 0; i < 5; i++) others.push(await createFundraiser(owner, { publish: true, tracks: 1 }));
  const now = Date.now();
  const spacing = Math.floor((YEAR_DAYS * 86_400_000) / DONATIONS);
  const batch = `insight_bench_${now}_`;
  server.sqlite
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO donations (fundraiser_id, payment_intent_id, provider, email, name, amount_cents,
           tip_cents, charity_ein, charity_name, status, succeeded_at)
         SELECT ?, ? || i, 'test', 'fan' || i || '@example.org', 'Fan ' || i, 1000 + i % 5000, i % 300,
           '530196605', 'American National Red Cross', 'succeeded', ? - i * ?
         FROM n`,
    )
    .run(DONATIONS, fundraiser.id, batch, now, spacing);
  journalPaidDonations(server, `${batch}%`, 52);

  // A year of counts: this fundraiser's and 50 others' (the table is shared; the key leads with
  // the fundraiser, so theirs should cost this answer nothing).
  const random = seeded(29);
  const today = siteCalendarDate(now, server.deps.config.timeZone);
  const kinds: [string, string][] = [
    ...['site', 'direct', 'news.example.com', 'blog.example.org', 'social.example.net'].map(
      (source): [string, string] => ['page_view', source],
    ),
    ['preview_play', ''],
    ['stream', ''],
    ...['original', 'mp3-320', 'flac'].map((format): [string, string] => ['download', format]),
    ['embed_view', ''],
    ['embed_play', ''],
    ['share', ''],
  ];
  const insert = server.sqlite.prepare(
    'insert into fundraiser_daily_counts (fundraiser_id, day, kind, detail, count) values (?, ?, ?, ?, ?)',
  );
  // Other fundraisers' ids need not exist for the benchmark's reads, but the key refers to them.
  server.sqlite.pragma('foreign_keys = OFF');
  server.sqlite.transaction(() => {
    for (const id of [
      fundraiser.id,
      ...others.map((other) => other.id),
      ...Array.from({ length: 45 }, (_, i) => 100_000 + i),
    ]) {
      for (let d = 0; d < YEAR_DAYS; d++) {
        const day = addDays(today, -d);
        for (const [kind, detail] of kinds) insert.run(id, day, kind, detail, 1 + Math.floor(random() * 500));
      }
    }
  })();
  server.sqlite.pragma('foreign_keys = ON');
  const rows = server.sqlite.prepare('select count(*) as n from fundraiser_daily_counts').get() as { n: number };
  console.log(
    `  ${DONATIONS.toLocaleString('en-US')} donations (${(DONATIONS * 2).toLocaleString('en-US')} journal rows with their fees), ` +
      `${rows.n.toLocaleString('en-US')} daily count rows`,
  );
  return { owner, fundraiser };
}

export async function benchInsight() {
  console.log(`\nInsight: a fundraiser with ${DONATIONS.toLocaleString('en-US')} donations and a year of daily counts`);
  const server = await startTestServer();
  try {
    const { owner, fundraiser } = await seedInsightYear(server);

    // In process: the service alone, each period; the first answer sums the journal from the start.
    const user = server.db.select().from(users).where(eq(users.email, 'insight-bench@example.org')).get()!;
    const session = { idHash: 'bench', user };
    const t0 = performance.now();
    fundraiserInsight(server.deps, session, fundraiser.id, { days: 30 });
    console.log(`  the first answer (every journal row read)        ${(performance.now() - t0).toFixed(2)} ms`);
    for (const days of [30, 'all'] as const) {
      const times = timeEach(RUNS, () => fundraiserInsight(server.deps, session, fundraiser.id, { days }));
      console.log(`  service, days=${String(days).padEnd(4)}                      ${fmt(times)}`);
    }

    // Over HTTP, beside the fundraiser's own JSON, while money keeps arriving: a donation (its
    // charge and fee rows) before every 10th request, so the answer is never simply kept.
    let arrived = 0;
    const donationArrives = () => {
      arrived++;
      const at = Date.now();
      server.sqlite
        .prepare(
          `insert into money_journal (provider_id, kind, fundraiser_id, charity_ein, charity_cents, platform_cents, occurred_at)
           values (?, 'charge', ?, '530196605', 2500, 100, ?), (?, 'fee', ?, '530196605', -80, -27, ?)`,
        )
        .run(`pi_arrives_${at}_${arrived}`, fundraiser.id, at, `txn_arrives_${at}_${arrived}`, fundraiser.id, at);
    };
    const baseline = await timeRequests(server, owner, `/api/fundraisers/${fundraiser.id}`, RUNS, donationArrives);
    console.log(`  baseline: GET /api/fundraisers/{id}              ${fmt(baseline)}`);
    for (const days of ['7', '30', '90', 'all']) {
      const path = `/api/fundraisers/${fundraiser.id}/insight?days=${days}`;
      const times = await timeRequests(server, owner, path, RUNS, donationArrives);
      console.log(
        `  GET …/insight?days=${days.padEnd(4)}                        ${fmt(times)}  ` +
          `(${(times.p99 / baseline.p99).toFixed(2)}× the baseline's p99)`,
      );
    }
    // The admin's view of the same site: every row of the journal by day (no target; an admin's).
    const admin = await adminClient(server, 'insight-bench-admin@example.org');
    const site = await timeRequests(server, admin, '/api/admin/insight?days=30', 50);
    console.log(`  GET /api/admin/insight?days=30                  ${fmt(site)}`);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInsight();
