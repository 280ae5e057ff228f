import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../shared/api-paths';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// The pages visitors land on (issue 24): made once for visitors and kept until a write changes
// what they show, each answer with a nonce of its own, gzipped from a copy made once.

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-pages-'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><html><head><meta name="description" content="x" /><title>Soundcause</title>
  <style>.header{color:red}</style></head><body><div id="root">${'<p>a repeated paragraph</p>'.repeat(50)}</div></body></html>`,
);
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
const server = useTestServer({ CLIENT_DIST_DIR: dist });

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; html: string };

/** A page as it travels (fetch would hide the encoding), decoded by Node's own gunzip. */
function rawPage(pathname: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.baseUrl}${pathname}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const html = (
          encoding === 'gzip' ? zlib.gunzipSync(body) : encoding === 'br' ? zlib.brotliDecompressSync(body) : body
        ).toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, html });
      });
    });
    request.on('error', reject);
  });
}

const nonceOf = (answer: RawAnswer) => /<style nonce="([^"]+)">/.exec(answer.html)?.[1];
const policyNonce = (answer: RawAnswer) =>
  /'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']))?.[1];

function answersIn(html: string): Record<string, unknown> {
  const script = /<script type="application\/json" id="first-answers">(.*?)<\/script>/s.exec(html)?.[1];
  return script === undefined ? {} : (JSON.parse(script) as Record<string, unknown>);
}

describe('the pages visitors land on', () => {
  it('go out gzipped in one valid stream, each with a new nonce that its policy names', async () => {
    const first = await rawPage('/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const second = await rawPage('/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(nonceOf(answer)).toBeDefined();
      expect(nonceOf(answer)).toBe(policyNonce(answer));
      expect(answer.html).toContain('<p>a repeated paragraph</p>'.repeat(50));
      expect(answer.body.length).toBeLessThan(answer.html.length / 3);
    }
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    // The same page, nonce apart, as a client without gzip gets it.
    const plain = await rawPage('/', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.html.replace(nonceOf(plain)!, 'N')).toBe(first.html.replace(nonceOf(first)!, 'N'));
    // An address of no page is the app's shell, answered 404, gzipped alike.
    const missing = await rawPage('/no/such/page', { 'accept-encoding': 'gzip' });
    expect(missing.status).toBe(404);
    expect(nonceOf(missing)).toBe(policyNonce(missing));
  });

  it("show a donation and a new fundraiser at once, and never a signed-in caller's view", async () => {
    const owner = await verifiedUser(server, 'pages-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name: 'Kept Page' } });
    const slug = fundraiser.urlSlug!;
    const fundraiserPath = apiPaths.fundraiser(slug);
    const visit = async (pathname: string) => answersIn((await rawPage(pathname, { 'accept-encoding': 'gzip' })).html);
    const raised = async () => (await visit(`/projects/${slug}`))[fundraiserPath] as { totalRaised?: number };

    const before = (await raised()).totalRaised ?? 0;
    // The owner's page between two visits: theirs, and not what the next visitor gets.
    const ownerPage = answersIn((await owner.get(`/projects/${slug}`)).text);
    expect(ownerPage[fundraiserPath]).toMatchObject({ canManage: true });
    expect(ownerPage[apiPaths.user]).toMatchObject({ email: 'pages-owner@example.org' });
    const visitorPage = await visit(`/projects/${slug}`);
    expect(visitorPage[fundraiserPath]).toMatchObject({ canManage: false });
    expect(visitorPage[apiPaths.user]).toBeUndefined();

    await donate(server, { fundraiserId: fundraiser.id, email: 'pages-fan@example.org', donationCents: 1500 });
    expect((await raised()).totalRaised).toBe(before + 1500);

    // A campaign's parameters make the same page; browse's own make another.
    const tagged = await visit(`/projects/${slug}?utm_source=newsletter&fbclid=x`);
    expect(tagged[fundraiserPath]).toEqual((await visit(`/projects/${slug}`))[fundraiserPath]);
    const found = apiPaths.fundraiserSearch({ searchTerm: 'Kept', genre: '', charityEin: '', page: 0 });
    expect((await visit('/browse/projects?searchTerm=Kept&utm_source=x'))[found]).toMatchObject({ totalCount: 1 });

    const search = apiPaths.fundraiserSearch({ searchTerm: '', genre: '', charityEin: '', page: 0 });
    const count = async () => ((await visit('/browse/projects'))[search] as { totalCount: number }).totalCount;
    const total = await count();
    await createFundraiser(owner, { publish: true, details: { name: 'Newly Kept' } });
    expect(await count()).toBe(total + 1);
  });
});
