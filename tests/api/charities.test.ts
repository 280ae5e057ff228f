import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonprofitDetailSchema, nonprofitSearchResultSchema } from '../../shared/schemas/charities';
import { startTestServer, type TestServer } from '../fixtures/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

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

  it('refuses a query over 800 characters', async () => {
    expect((await server.client().get(`/api/nonprofits/search/${'a'.repeat(801)}`)).status).toBe(400);
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
