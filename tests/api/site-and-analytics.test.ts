import { describe, expect, it } from 'vitest';
import { siteSchema } from '../../shared/answers/site';
import { analyticsDailyCounts } from '../../server/db/schema';

import { createFundraiser } from '../fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer({
  SITE_NAME: 'Tunes for Good',
  CONTACT_EMAIL: 'team@tunes.example',
  SITE_TIME_ZONE: 'US/Eastern',
});

describe('GET /api/site', () => {
  it('tells the client the configured site name and contact details', async () => {
    const response = await server.client().get('/api/site');
    const site = siteSchema.parse(response.json);
    expect(site.siteName).toBe('Tunes for Good');
    expect(site.contactEmail).toBe('team@tunes.example');
    // The zone whose calendar dates the money pages show, by the name every browser knows.
    expect(site.timeZone).toBe('America/New_York');
    // No fundraiser 683 here: no promo for pages to ask about (and be answered 404).
    expect(site.promoProjectId).toBeNull();
  });

  it('names the promo once PROMO_PROJECT_ID is a published fundraiser', async () => {
    const other = await startTestServer({ PROMO_PROJECT_ID: '1' });
    try {
      const owner = await verifiedUser(other, 'promo-owner@example.org');
      const promo = await createFundraiser(owner, { tracks: 1 });
      expect(promo.id).toBe(1);
      const promoOf = async () => siteSchema.parse((await other.client().get('/api/site')).json).promoProjectId;
      expect(await promoOf()).toBeNull();
      await owner.patch('/api/fundraisers/1/publish', { json: { publishArtist: true } });
      expect(await promoOf()).toBe(1);
    } finally {
      await other.close();
    }
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
      'pageview /artists/:param': 2,
      'pageview /reset-password/:param': 1,
      'event Sign up': 1,
    });
  });

  it('refuses malformed beacons and unknown event names with 400', async () => {
    expect((await server.client().post('/api/analytics/pageview', { json: { path: '' } })).status).toBe(400);
    expect((await server.client().post('/api/analytics/event', { json: { name: 'made-up' } })).status).toBe(400);
  });

  it('stores a bounded set of names whatever paths are sent', async () => {
    const client = server.client();
    for (const path of ['/random-1', '/random-2/x', '/artists/a/b/c/d/e/f', '/music/album/some-album']) {
      await client.post('/api/analytics/pageview', { json: { path } });
    }
    const names = server.db
      .select()
      .from(analyticsDailyCounts)
      .all()
      .map((row) => row.name);
    expect(names).toContain('(other)');
    expect(names).toContain('/music/album/:param');
    expect(names.some((name) => name.includes('random'))).toBe(false);
  });

  it('throttles one address after 600 hits an hour', async () => {
    const client = server.client();
    for (let n = 0; n < 600; n++) await client.post('/api/analytics/event', { json: { name: 'Publish' } });
    const blocked = await client.post('/api/analytics/event', { json: { name: 'Publish' } });
    expect(blocked.status).toBe(429);
  });
});
