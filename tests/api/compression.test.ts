import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress.mjs';
import { chooseEncoding } from '../../server/http/compression';
import { donate } from '../fixtures/donations';
import { createFundraiser, uploadImage } from '../fixtures/fundraisers';
import { adminClient, startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';

// Compression (issue 13): built assets go out as the .br/.gz copies made at build time, by
// Accept-Encoding and with Vary; JSON, pages and the CSV are compressed as they are written when
// they are worth it; audio, images, HEAD and ranged answers are left as they are.

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-compress-'));
const script = `console.log(${JSON.stringify('a fairly repetitive line of built JavaScript. '.repeat(200))});\n`;
const html = `<!doctype html><html><head><title>Soundcause</title><meta name="description" content="x" /></head><body>${'<div id="root"></div>'.repeat(100)}</body></html>`;
let server: TestServer;

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request whose body is read as sent: fetch would decompress it. */
function raw(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseUrl}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const decode = (answer: RawAnswer) =>
  answer.headers['content-encoding'] === 'br'
    ? zlib.brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(answer.body)
      : answer.body;

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(dist, 'index.html'), html);
  precompress(dist);
  server = await startTestServer({ CLIENT_DIST_DIR: dist });
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('built assets', () => {
  it('go out as the brotli or gzip copy the client accepts, or as they are, always with Vary', async () => {
    const asset = '/assets/app-abc123.js';
    const brotli = await raw(asset, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toContain('immutable');
    expect(brotli.body.length).toBeLessThan(script.length / 10);
    expect(decode(brotli).toString()).toBe(script);

    const gzip = await raw(asset, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decode(gzip).toString()).toBe(script);

    const plain = await raw(asset);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(script);
  });

  it('keep HEAD and Range answers correct', async () => {
    const head = await raw('/assets/app-abc123.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(script)));
    const range = await raw('/assets/app-abc123.js', { range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe(script.slice(0, 10));
  });
});

describe('answers the server writes', () => {
  it('compresses a page of the app and a large JSON answer, not a small one', async () => {
    const page = await raw('/browse', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(decode(page).toString()).toContain('<div id="root"></div>');

    const large = await raw('/api/nonprofits/featured', { 'accept-encoding': 'gzip, br' });
    expect(large.status).toBe(200);
    expect(Number(large.headers['content-length'])).toBe(large.body.length);
    expect(decode(large).length).toBeGreaterThan(1024);
    expect(large.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(large).toString())).toHaveProperty('nonprofits');

    const small = await raw('/api/user', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/accept-encoding/i);

    const head = await raw('/api/nonprofits/featured', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('streams the CSV through gzip, and leaves images alone', async () => {
    const admin = await adminClient(server);
    const owner = await verifiedUser(server, 'compress-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    for (let i = 0; i < 30; i++) {
      await donate(server, { fundraiserId: fundraiser.id, email: `fan${i}@example.org`, donationCents: 1000 + i });
    }
    const csvPath = '/api/admin/transactions/download';
    const headers = { cookie: admin.cookieHeader(), 'x-forwarded-for': admin.ip };
    const plain = await raw(csvPath, headers);
    const zipped = await raw(csvPath, { ...headers, 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-length']).toBeUndefined();
    expect(decode(zipped).toString()).toBe(plain.body.toString());
    expect(plain.body.toString().split('\r\n')).toHaveLength(32);

    const image = await uploadImage(owner);
    const picture = await raw(`/media/images/${image}-400.jpg`, { 'accept-encoding': 'gzip, br' });
    expect(picture.status).toBe(200);
    expect(picture.headers['content-encoding']).toBeUndefined();
  });
});

describe('chooseEncoding', () => {
  it('prefers brotli, honours q=0 and the wildcard', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
