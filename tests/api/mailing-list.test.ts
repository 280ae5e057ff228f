import { describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../server/features/accounts/service';
import { mailingListSubscribers } from '../../server/db/schema';
import { registerUser, strongPassword } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();

describe('POST /api/mailing-list', () => {
  it('stores the address once, lower-cased, however often it is sent', async () => {
    const first = await server.client().post('/api/mailing-list', { json: { email: 'Fan@Example.org' } });
    const again = await server.client().post('/api/mailing-list', { json: { email: 'fan@example.org' } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    const rows = server.db.select().from(mailingListSubscribers).all();
    expect(rows.map((row) => row.email)).toEqual(['fan@example.org']);
  });

  it('throttles one address after 20 signups an hour', async () => {
    const ip = '192.0.2.20';
    for (let n = 0; n < 20; n++) {
      expect(
        (await server.client(ip).post('/api/mailing-list', { json: { email: `bulk${n}@example.org` } })).status,
      ).toBe(200);
    }
    const blocked = await server.client(ip).post('/api/mailing-list', { json: { email: 'bulk-last@example.org' } });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('answers a bad address with the email message', async () => {
    const response = await server.client().post('/api/mailing-list', { json: { email: 'not-an-email' } });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      formErrors: [expect.objectContaining({ field: 'email', message: 'Please enter a valid email.' })],
    });
  });
});

describe('GET /api/admin/mailing-list.csv', () => {
  it('is for admins only', async () => {
    expect((await server.client().get('/api/admin/mailing-list.csv')).status).toBe(401);
    const user = server.client();
    await registerUser(user, 'not-admin@example.org');
    expect((await user.get('/api/admin/mailing-list.csv')).status).toBe(403);
  });

  it('exports every subscriber, neutralising spreadsheet formulas', async () => {
    await server.client().post('/api/mailing-list', { json: { email: '-cmd@example.org' } });
    await ensureAdmin({ db: server.db }, 'boss@example.org', strongPassword);
    const admin = server.client();
    await admin.post('/api/login', { form: { email: 'boss@example.org', password: strongPassword } });
    const response = await admin.get('/api/admin/mailing-list.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = response.text.trim().split('\r\n');
    expect(lines[0]).toBe('email,subscribedAt');
    expect(lines.some((line) => line.startsWith('fan@example.org,'))).toBe(true);
    expect(lines.some((line) => line.startsWith("'-cmd@example.org,"))).toBe(true);
  });
});
