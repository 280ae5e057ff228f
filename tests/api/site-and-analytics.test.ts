import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteSchema } from '../../shared/schemas/site';
import { analyticsDailyCounts } from '../../server/db/schema';
import { startTestServer, type TestServer } from '../fixtures/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SITE_NAME: 'Tunes for Good', CONTACT_EMAIL: 'team@tunes.example' });
});
afterAll(() => server.close());

describe('GET /api/site', () => {
  it('tells the client the configured site name and contact details', async () => {
    const response = await server.client().get('/api/site');
    const site = siteSchema.parse(response.json);
    expect(site.siteName).toBe('Tunes for Good');
    expect(site.contactEmail).toBe('team@tunes.example');
    expect(site.promoProjectId).toBe(683);
  });
});

describe('analytics', () => {
  it('counts page views per day by route shape, with ids and tokens removed', async () => {
    const client = server.client();
    expect((await client.post('/api/analytics/pageview', { json: { path: '/artists/42' } })).status).toBe(204);
    await client.post('/api/analytics/pageview', { json: { path: '/artists/7?x=1' } });
    await client.post('/api/analytics/pageview', { json: { path: '/reset-password/secret-token' } });
    await client.post('/api/analytics/event', { json: { name: 'Sign up' } });
    const rows = server.db.select().from(analyticsDailyCounts).all();
    const counts = Object.fromEntries(rows.map((row) => [`${row.kind} ${row.name}`, row.count]));
    expect(counts).toEqual({
      'pageview /artists/:id': 2,
      'pageview /reset-password/:token': 1,
      'event Sign up': 1,
    });
  });

  it('refuses malformed beacons with 400', async () => {
    const response = await server.client().post('/api/analytics/pageview', { json: { path: '' } });
    expect(response.status).toBe(400);
  });
});
