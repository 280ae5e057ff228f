import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  featuredCharitiesSchema,
  nonprofitDetailSchema,
  nonprofitSearchResultSchema,
} from '../../shared/answers/charities';
import { findCharity } from '../../server/features/charities/queries';
import { adminClient, fieldErrors, registerUser, startTestServer, type TestServer } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();

const names = async (query: string) => {
  const response = await server.client().get(`/api/nonprofits/search/${encodeURIComponent(query)}`);
  expect(response.status).toBe(200);
  return nonprofitSearchResultSchema.parse(response.json).nonprofits.map((nonprofit) => nonprofit.name);
};

describe('GET /api/nonprofits/{ein}', () => {
  it('finds a bundled charity by EIN with or without the dash', async () => {
    for (const ein of ['13-1788491', '131788491']) {
      const response = await server.client().get(`/api/nonprofits/${ein}`);
      expect(response.status).toBe(200);
      const detail = nonprofitDetailSchema.parse(response.json);
      expect(detail.nonprofit).toMatchObject({
        ein: '13-1788491',
        name: 'American Cancer Society',
        locationAddress: 'Atlanta, GA',
        websiteUrl: 'https://www.cancer.org',
      });
      expect(detail.nonprofitTags.map((tag) => tag.title)).toContain('health');
    }
  });

  it("says 'No charity found with EIN {ein}' with 404 for an unknown or malformed EIN", async () => {
    for (const ein of ['99-9999999', '12345']) {
      const response = await server.client().get(`/api/nonprofits/${ein}`);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ code: 'OTHER', message: `No charity found with EIN ${ein}` });
    }
  });

  it("refuses an EIN over 100 characters with the spec's length message", async () => {
    const response = await server.client().get(`/api/nonprofits/${'1'.repeat(101)}`);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ code: 'OTHER', message: 'Charity EIN cannot exceed 100 character(s).' });
  });
});

describe('GET /api/nonprofits/search/{query}', () => {
  it('searches names and cities by word prefixes, and EINs exactly', async () => {
    expect(await names('red cro')).toEqual(['American National Red Cross']);
    expect(await names('memphis')).toEqual(["ALSAC / St. Jude Children's Research Hospital"]);
    expect(await names('53-0196605')).toEqual(['American National Red Cross']);
    expect(await names('530196605')).toEqual(['American National Red Cross']);
    expect(await names('!!!')).toEqual([]);
    expect(await names('no such charity anywhere')).toEqual([]);
  });

  it("refuses a query over 800 characters with the spec's length message", async () => {
    const response = await server.client().get(`/api/nonprofits/search/${'a'.repeat(801)}`);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ code: 'OTHER', message: 'Search term cannot exceed 800 character(s).' });
  });
});

describe('importing the IRS Business Master File', () => {
  it('imports only 501(c)(3) organisations, with readable names, and keeps bundled entries as they are', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const file = path.resolve('tests/fixtures/eo-bmf-sample.csv');
    const { stdout } = await promisify(execFile)(tsx, ['server/cli.ts', 'import-irs-bmf', file], {
      env: { ...process.env, DATA_DIR: server.dataDir },
    });
    expect(stdout).toContain('3 charities imported, 2 other organisations skipped.');

    expect(await names('portland music')).toEqual(['Portland Community Music School']);
    const quoted = nonprofitDetailSchema.parse((await server.client().get('/api/nonprofits/01-0000002')).json);
    expect(quoted.nonprofit).toMatchObject({ name: 'Harmony, Hope and Health Fund', locationAddress: 'Eugene, OR' });
    // 501(c)(7) and (c)(4) organisations are not charities donations can go to.
    expect((await server.client().get('/api/nonprofits/010000003')).status).toBe(404);
    expect((await server.client().get('/api/nonprofits/010000004')).status).toBe(404);
    const redCross = nonprofitDetailSchema.parse((await server.client().get('/api/nonprofits/530196605')).json);
    expect(redCross.nonprofit).toMatchObject({
      name: 'American National Red Cross',
      websiteUrl: 'https://www.redcross.org',
    });

    // Importing again refreshes instead of duplicating.
    await promisify(execFile)(tsx, ['server/cli.ts', 'import-irs-bmf', file], {
      env: { ...process.env, DATA_DIR: server.dataDir },
    });
    expect(await names('portland music')).toEqual(['Portland Community Music School']);
  });

  it('refuses a file that is not an EO BMF extract', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const result = await promisify(execFile)(tsx, ['server/cli.ts', 'import-irs-bmf', path.resolve('package.json')], {
      env: { ...process.env, DATA_DIR: server.dataDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in result && result.code).toBe(1);
    expect(result.stderr).toContain('is not an EO BMF extract');
  });
});

describe('featured charities', () => {
  const put = (client: ReturnType<TestServer['client']>, eins: unknown) =>
    client.request('PUT', '/api/admin/featured-charities', { json: { eins } });
  const featuredNames = async () => {
    const response = await server.client().get('/api/nonprofits/featured');
    expect(response.status).toBe(200);
    return featuredCharitiesSchema.parse(response.json).nonprofits.map((nonprofit) => nonprofit.name);
  };

  let admin: ReturnType<TestServer['client']>;
  beforeAll(async () => {
    admin = await adminClient(server, 'charity-admin@example.org');
  });

  it('lists ten well-known bundled charities until an admin chooses', async () => {
    const names = await featuredNames();
    expect(names).toHaveLength(10);
    expect(names.slice(0, 4)).toEqual([
      'American Cancer Society',
      'Human Rights Campaign Foundation',
      'American National Red Cross',
      'U.S. Fund for UNICEF (UNICEF USA)',
    ]);
  });

  it('lets only admins change the list: 401 for guests, 403 for other users', async () => {
    expect((await put(server.client(), ['530196605'])).status).toBe(401);
    const user = server.client();
    await registerUser(user, 'not-an-admin@example.org');
    expect((await put(user, ['530196605'])).status).toBe(403);
    expect(await featuredNames()).toHaveLength(10);
  });

  it('refuses EINs not in the directory, malformed ones and duplicates, on their place in the list', async () => {
    const malformed = await put(admin, ['53-0196605', '99-9999999', 'abc']);
    expect(malformed.status).toBe(400);
    expect(fieldErrors(malformed.json)).toEqual({ 'eins.2': 'Nonprofit is not valid' });
    const notInDirectory = await put(admin, ['53-0196605', '99-9999999']);
    expect(notInDirectory.status).toBe(400);
    expect(fieldErrors(notInDirectory.json)).toEqual({ 'eins.1': 'Nonprofit is not valid' });
    const twice = await put(admin, ['530196605', '13-1788491', '53-0196605']);
    expect(twice.status).toBe(400);
    expect(fieldErrors(twice.json)).toEqual({ 'eins.2': 'Nonprofit is already in the list.' });
    expect((await put(admin, [])).status).toBe(400);
    expect(
      (
        await put(
          admin,
          Array.from({ length: 11 }, () => '530196605'),
        )
      ).status,
    ).toBe(400);
    expect(await featuredNames()).toHaveLength(10);
  });

  it("saves an admin's list and answers it in that order", async () => {
    const response = await put(admin, ['53-0196605', '131788491', '04-3091431']);
    expect(response.status).toBe(200);
    const saved = featuredCharitiesSchema.parse(response.json).nonprofits;
    expect(saved.map((nonprofit) => nonprofit.ein)).toEqual(['53-0196605', '13-1788491', '04-3091431']);
    expect(await featuredNames()).toEqual([
      'American National Red Cross',
      'American Cancer Society',
      'Electronic Frontier Foundation',
    ]);
  });
});

// Every.org, faked at the network boundary: a local HTTP server answering like
// partners.every.org/v0.2 (search: { nonprofits }, nonprofit: { data: { nonprofit, nonprofitTags } }).
const API_KEY = 'pk_test_soundcause';

const SEARCH_HITS = [
  {
    ein: '930000001',
    name: 'Portland Youth Music Fund',
    location: 'PORTLAND, OR',
    logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/youth-music.png',
    websiteUrl: 'https://youthmusic.example.org',
    profileUrl: 'https://www.every.org/youth-music',
    matchedTerms: [],
    slug: 'youth-music',
    tags: ['music', 'youth-development'],
  },
  // The bundled American Cancer Society, as Every.org writes it: its curated entry must stay.
  {
    ein: '131788491',
    name: 'AMERICAN CANCER SOCIETY INC',
    location: 'Kennesaw, GA, USA',
    logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/acs.png',
    websiteUrl: '',
    profileUrl: 'https://www.every.org/acs',
    tags: [],
  },
  // No EIN: not a charity a fundraiser can name.
  { name: 'A Project Without EIN', location: 'London, UK', profileUrl: 'https://www.every.org/p' },
  // A website that is not http(s) is dropped, not passed on as a link; a logo anywhere but
  // Every.org's image host too (pages may load no image from elsewhere: the CSP).
  {
    ein: '93-0000004',
    name: 'Lakeside Choir Society',
    location: 'WASHINGTON, District of Columbia, 20036-1653 United States',
    logoUrl: 'https://images.example.net/lakeside-choir.png',
    websiteUrl: 'javascript:alert(1)',
    profileUrl: 'https://www.every.org/lakeside-choir',
  },
];

const LOOKUPS: Record<string, unknown> = {
  '940000002': {
    message: 'OK',
    data: {
      nonprofit: {
        id: 'b2c7',
        name: 'Harbor Animal Rescue',
        primarySlug: 'harbor-animal-rescue',
        ein: '940000002',
        isDisbursable: true,
        description: 'Rescues animals.',
        locationAddress: 'SAN FRANCISCO, CA',
        logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/harbor.png',
        websiteUrl: 'https://harbor.example.org',
        profileUrl: 'https://www.every.org/harbor-animal-rescue',
      },
      nonprofitTags: [
        { id: '1', tagName: 'animals', causeCategory: 'ANIMALS', title: 'Animals' },
        { id: '2', tagName: 'animal-welfare', causeCategory: 'ANIMALS', title: 'Animal welfare' },
      ],
    },
  },
};

async function startFakeEveryOrg() {
  const requests: URL[] = [];
  let mode: 'ok' | 'fail' | 'hang' = 'ok';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://every.org.test');
    requests.push(url);
    if (mode === 'hang') return; // never answers: the client's timeout has to end the wait
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (mode === 'fail') return send(500, { message: 'Internal server error' });
    if (url.searchParams.get('apiKey') !== API_KEY) return send(401, { message: 'Invalid API key' });
    if (url.pathname === '/v0.2/search/harbor') {
      // A thinner answer about a charity an earlier lookup told more of.
      return send(200, { nonprofits: [{ ein: '940000002', name: 'Harbor Animal Rescue', location: '', tags: [] }] });
    }
    if (url.pathname.startsWith('/v0.2/search/')) return send(200, { nonprofits: SEARCH_HITS });
    const lookup = LOOKUPS[url.pathname.replace('/v0.2/nonprofit/', '')];
    if (url.pathname.startsWith('/v0.2/nonprofit/') && lookup) return send(200, lookup);
    send(404, { message: 'Nonprofit not found' });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v0.2`,
    requests,
    setMode: (next: typeof mode) => (mode = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('with Every.org configured', () => {
  let app: TestServer;
  let fake: Awaited<ReturnType<typeof startFakeEveryOrg>>;
  let fakeOpen = true;
  beforeAll(async () => {
    fake = await startFakeEveryOrg();
    app = await startTestServer({ EVERY_ORG_API_KEY: API_KEY, EVERY_ORG_API_URL: fake.apiUrl });
  });
  afterAll(async () => {
    await app.close();
    if (fakeOpen) await fake.close();
  });

  const search = async (query: string) => {
    const response = await app.client().get(`/api/nonprofits/search/${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
    return nonprofitSearchResultSchema.parse(response.json).nonprofits;
  };
  const detail = async (ein: string) => {
    const response = await app.client().get(`/api/nonprofits/${ein}`);
    return { status: response.status, json: response.json };
  };

  it('merges Every.org matches into local ones, each EIN once, sending the API key', async () => {
    fake.requests.length = 0;
    const found = await search('cancer');
    expect(found.map((nonprofit) => [nonprofit.ein, nonprofit.name])).toEqual([
      ['13-1788491', 'American Cancer Society'],
      ['93-0000001', 'Portland Youth Music Fund'],
      ['93-0000004', 'Lakeside Choir Society'],
    ]);
    expect(found[1]).toEqual({
      ein: '93-0000001',
      name: 'Portland Youth Music Fund',
      locationAddress: 'Portland, OR',
      tags: ['music', 'youth development'],
      logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/youth-music.png',
      websiteUrl: 'https://youthmusic.example.org',
    });
    expect(found[2]).toMatchObject({ locationAddress: 'Washington, DC' });
    expect(found[2]!.websiteUrl).toBeUndefined();
    expect(found[2]!.logoUrl).toBeUndefined();

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.pathname).toBe('/v0.2/search/cancer');
    expect(request!.searchParams.get('apiKey')).toBe(API_KEY);
    expect(request!.searchParams.get('take')).toBe('20');
  });

  it("keeps a bundled charity's curated fields when Every.org answers with blanks, gaining only a logo", async () => {
    const acs = nonprofitDetailSchema.parse((await detail('131788491')).json).nonprofit;
    expect(acs).toEqual({
      ein: '13-1788491',
      name: 'American Cancer Society',
      locationAddress: 'Atlanta, GA',
      tags: ['health', 'cancer'],
      websiteUrl: 'https://www.cancer.org',
      logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/acs.png',
    });
    expect(findCharity(app.db, '131788491')?.source).toBe('bundled');
    expect(findCharity(app.db, '930000001')?.source).toBe('every.org');
  });

  it('looks up an EIN the directory lacks on Every.org, and caches it', async () => {
    const found = await detail('94-0000002');
    expect(found.status).toBe(200);
    expect(nonprofitDetailSchema.parse(found.json)).toEqual({
      nonprofit: {
        ein: '94-0000002',
        name: 'Harbor Animal Rescue',
        locationAddress: 'San Francisco, CA',
        tags: ['animals', 'animal welfare'],
        logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/harbor.png',
        websiteUrl: 'https://harbor.example.org',
      },
      nonprofitTags: [
        { tagName: 'animals', title: 'animals' },
        { tagName: 'animal-welfare', title: 'animal welfare' },
      ],
    });
    expect(findCharity(app.db, '940000002')).toMatchObject({ name: 'Harbor Animal Rescue', source: 'every.org' });

    const unknown = await detail('99-9999998');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 'OTHER', message: 'No charity found with EIN 99-9999998' });
  });

  it('never refreshes a cached charity with blanks', async () => {
    expect((await search('harbor')).map((nonprofit) => nonprofit.ein)).toEqual(['94-0000002']);
    expect(nonprofitDetailSchema.parse((await detail('940000002')).json).nonprofit).toMatchObject({
      locationAddress: 'San Francisco, CA',
      tags: ['animals', 'animal welfare'],
      websiteUrl: 'https://harbor.example.org',
      logoUrl: 'https://res.cloudinary.com/everydotorg/image/upload/harbor.png',
    });
  });

  it('accepts a featured charity only Every.org knew', async () => {
    const admin = await adminClient(app, 'every-admin@example.org');
    LOOKUPS['950000005'] = {
      data: { nonprofit: { ein: '950000005', name: 'Valley Music Therapy', locationAddress: 'Fresno, CA' } },
    };
    const response = await admin.request('PUT', '/api/admin/featured-charities', {
      json: { eins: ['95-0000005', '53-0196605'] },
    });
    expect(response.status).toBe(200);
    expect(featuredCharitiesSchema.parse(response.json).nonprofits.map((nonprofit) => nonprofit.name)).toEqual([
      'Valley Music Therapy',
      'American National Red Cross',
    ]);
  });

  it('asks Every.org once for the same search, and stops asking for a caller over its share', async () => {
    fake.requests.length = 0;
    await search('Music Fund');
    await search('music fund ');
    expect(fake.requests).toHaveLength(1);

    const caller = app.client();
    for (let n = 0; n < 60; n++) {
      expect((await caller.get(`/api/nonprofits/search/quota${n}`)).status).toBe(200);
    }
    const asked = fake.requests.length;
    const over = await caller.get('/api/nonprofits/search/cancer%20quota');
    expect(over.status).toBe(200);
    expect(fake.requests).toHaveLength(asked);
    // Others still get Every.org's answers.
    await search('another caller');
    expect(fake.requests).toHaveLength(asked + 1);
  });

  it('answers from the local directory when Every.org fails', async () => {
    fake.setMode('fail');
    expect((await search('red cross')).map((nonprofit) => nonprofit.name)).toEqual(['American National Red Cross']);
    expect((await detail('96-0000006')).status).toBe(404);
    expect((await detail('53-0196605')).status).toBe(200);
    fake.setMode('ok');
  });

  it('gives up on Every.org after its timeout and answers from the local directory', { timeout: 15_000 }, async () => {
    fake.setMode('hang');
    const started = Date.now();
    expect((await search('red cross')).map((nonprofit) => nonprofit.name)).toEqual(['American National Red Cross']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    expect(Date.now() - started).toBeLessThan(10_000);
    fake.setMode('ok');
  });

  it('still finds what it cached once Every.org is gone', async () => {
    await fake.close();
    fakeOpen = false;
    const cached = nonprofitDetailSchema.parse((await detail('93-0000001')).json).nonprofit;
    expect(cached.name).toBe('Portland Youth Music Fund');
    expect((await search('youth music')).map((nonprofit) => nonprofit.ein)).toEqual(['93-0000001']);
    expect((await search('93-0000004')).map((nonprofit) => nonprofit.name)).toEqual(['Lakeside Choir Society']);
  });
});
