import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// GET /metrics (issue 25; DESIGN.md, metrics): Prometheus's text format behind METRICS_TOKEN.

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const server = useTestServer({ METRICS_TOKEN: TOKEN });

/** The value of one series in a scrape, e.g. `soundcause_fulfilments_total`, or a labelled one. */
function valueOf(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

async function scrape(target: TestServer = server) {
  const answer = await target.client().get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/plain');
  return answer.text;
}

describe('GET /metrics', () => {
  it('is not there without METRICS_TOKEN, and refuses a missing or wrong token', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.client().get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        404,
      );
    } finally {
      await plain.close();
    }
    const visitor = server.client();
    const none = await visitor.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await visitor.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await visitor.get('/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);
    expect(none.text).not.toContain('soundcause_');
  });

  it('counts requests by the route they matched, never by address, with their latency', async () => {
    const owner = await verifiedUser(server, 'metrics-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const before = await scrape();
    const route = 'soundcause_http_requests_total{method="GET",route="/api/fundraisers/slug/:slug",status="200"}';
    const missing = 'soundcause_http_requests_total{method="GET",route="/api/fundraisers/slug/:slug",status="404"}';
    const visitor = server.client();
    for (let i = 0; i < 3; i++)
      expect((await visitor.get(`/api/fundraisers/slug/${fundraiser.urlSlug}`)).status).toBe(200);
    expect((await visitor.get('/api/fundraisers/slug/no-such-album')).status).toBe(404);
    const after = await scrape();
    expect((valueOf(after, route) ?? 0) - (valueOf(before, route) ?? 0)).toBe(3);
    expect((valueOf(after, missing) ?? 0) - (valueOf(before, missing) ?? 0)).toBe(1);
    expect(after).not.toContain(fundraiser.urlSlug);
    expect(after).not.toContain('no-such-album');
    expect(
      valueOf(
        after,
        'soundcause_http_request_duration_seconds_count{method="GET",route="/api/fundraisers/slug/:slug"}',
      ),
    ).toBeGreaterThanOrEqual(4);
    // The process: memory, CPU, the event loop.
    expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(after).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts a fulfilment once however many report it, the donations started, and the queue of jobs', async () => {
    const owner = await verifiedUser(server, 'metrics-artist@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const before = await scrape();
    const intent = await donate(server, { fundraiserId: fundraiser.id, email: 'metrics-fan@example.org' });
    // The success page asks too: the same payment, fulfilled already.
    const shown = await server.client().get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`);
    expect(shown.status).toBe(200);
    const after = await scrape();
    const delta = (series: string) => (valueOf(after, series) ?? 0) - (valueOf(before, series) ?? 0);
    expect(delta('soundcause_fulfilments_total')).toBe(1);
    expect(delta('soundcause_donations_started_total')).toBe(1);
    // The receipt waits in the queue (the test server runs no jobs until asked).
    expect(valueOf(after, 'soundcause_jobs{kind="donation-receipt",status="queued"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'soundcause_sqlite_write_lock_wait_seconds_count')).toBeGreaterThan(0);

    await server.jobs.drain();
    const drained = await scrape();
    expect(valueOf(drained, 'soundcause_jobs{kind="donation-receipt",status="queued"}')).toBeUndefined();
    expect(
      valueOf(drained, 'soundcause_jobs_ended_total{kind="donation-receipt",outcome="done"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 with a clear message, and counts it, when the database stays locked past its timeout', async () => {
    const before = await scrape();
    const holder = new Database(server.config.databasePath);
    try {
      // Another writer (a backup's copy, a burst from other processes) holds the write lock.
      holder.exec('BEGIN IMMEDIATE');
      const answer = await server.client().post('/api/register', {
        json: { firstName: 'Busy', lastName: 'Day', email: 'busy@example.org', password: 'Str0ng!pass-busy' },
      });
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({ code: 'OTHER', message: messages.busy });
      expect(answer.headers.get('retry-after')).toBe('2');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const after = await scrape();
    expect(
      (valueOf(after, 'soundcause_sqlite_busy_total') ?? 0) - (valueOf(before, 'soundcause_sqlite_busy_total') ?? 0),
    ).toBe(1);
    // Nothing was written: the same request now goes through.
    const again = await server.client().post('/api/register', {
      json: { firstName: 'Busy', lastName: 'Day', email: 'busy@example.org', password: 'Str0ng!pass-busy' },
    });
    expect(again.status, again.text).toBe(201);
  }, 20_000);
});
