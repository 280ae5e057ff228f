import { beforeAll, describe, expect, it } from 'vitest';
import { insertSucceededDonations, journalPaidDonations } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// The transactions CSV at volume (issue 11): 100,000 rows arrive streamed (no Content-Length: the
// body is written as it is read, a keyset page at a time), every row exactly once, newest first,
// across page boundaries where many rows share a moment, and the database is read as the body goes
// (not built whole first). Memory is measured by `npm run bench`.

const COUNT = 100_000;
const server = useTestServer();
let admin: TestClient;

beforeAll(async () => {
  admin = await adminClient(server);
  const owner = await verifiedUser(server, 'volume-owner@example.org');
  const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
  insertSucceededDonations(server, fundraiser.id, COUNT);
});

describe('transactions CSV at 100,000 rows', () => {
  it('streams every row once, newest first, ties broken by id', async () => {
    const answer = await admin.get('/api/admin/transactions/download');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBeNull();
    const lines = answer.text.split('\r\n');
    expect(lines.pop()).toBe('');
    const header = lines.shift()!.split(',');
    expect(lines).toHaveLength(COUNT);
    const createdAtColumn = header.indexOf('createdAt');
    const idColumn = header.indexOf('id');
    const seen = new Set<number>();
    let previous = { createdAt: '9999', id: Number.MAX_SAFE_INTEGER };
    for (const line of lines) {
      // The quoted name holds a comma; the columns before it never do.
      const cells = line.split(',');
      const row = { createdAt: cells[createdAtColumn]!, id: Number(cells[idColumn]) };
      const ordered =
        row.createdAt < previous.createdAt || (row.createdAt === previous.createdAt && row.id < previous.id);
      if (!ordered) throw new Error(`row ${row.id} (${row.createdAt}) after ${previous.id} (${previous.createdAt})`);
      seen.add(row.id);
      previous = row;
    }
    expect(seen.size).toBe(COUNT);
    expect(lines[0]).toContain(`,fan${COUNT}@example.org,`);
    expect(lines[0]).toContain(`"Fan ""Number"", ${COUNT}"`);
  });

  it('reads the database as the download goes: a payment recorded after the first bytes is in it, last', async () => {
    const response = await fetch(`${server.baseUrl}/api/admin/transactions/download`, {
      headers: { cookie: admin.cookieHeader(), 'accept-encoding': 'identity' },
    });
    expect(response.status).toBe(200);
    // The answer has begun. A CSV built whole before answering has read every row by now; a
    // streamed one has read a page or two of the hundred. The oldest payment of all, recorded
    // now, is then still ahead of the stream, and must be its last row.
    server.sqlite
      .prepare(
        `INSERT INTO donations (fundraiser_id, payment_intent_id, provider, email, name, amount_cents, tip_cents,
           charity_ein, charity_name, status, succeeded_at)
         SELECT fundraiser_id, 'late_arrival', 'test', 'late@example.org', 'Late', 700, 0, charity_ein, charity_name,
           'succeeded', 1000
         FROM donations LIMIT 1`,
      )
      .run();
    journalPaidDonations(server, 'late_arrival', 45);
    const lines = (await response.text()).split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1 + COUNT + 1);
    expect(lines.at(-1)).toContain(',late@example.org,700,0,');
  });
});
