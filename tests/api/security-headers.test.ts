import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_STRIPE_KEYS } from '../fixtures/fake-stripe';
import { startTestServer, type TestServer } from '../fixtures/test-server';

// The headers every answer carries (issue 14, server/http/security-headers.ts): a
// Content-Security-Policy allowing exactly what the app loads (Stripe's script and frames only
// when Stripe takes the payments), a nonce for each page's inline styles, a Permissions-Policy,
// and HSTS only over HTTPS. The browser tests prove the policy lets the app work (they fail on any
// violation, tests/fixtures/console-errors.ts); these prove what it allows.

/** A built client's index.html as far as the headers care: its inline critical styles. */
function clientBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-dist-'));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><title>Soundcause</title>
    <style>
      body { margin: 0; }
    </style>
  </head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>`,
  );
  return dir;
}

type Policy = Record<string, string[]>;

function parsePolicy(header: string | null): Policy {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const STRIPE_HOSTS = /stripe\.com/;

const servers: TestServer[] = [];
const dist = clientBuild();
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  fs.rmSync(dist, { recursive: true, force: true });
});

async function serverWith(env: Record<string, string>) {
  const server = await startTestServer({ CLIENT_DIST_DIR: dist, ...env });
  servers.push(server);
  return server;
}

describe('without Stripe (the test provider), over plain HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith({});
  });

  it("gives each page a new nonce for its inline styles, which the page's policy alone allows", async () => {
    const first = await server.client().get('/');
    const second = await server.client().get('/browse/projects');
    const nonces = [first, second].map((page) => {
      const nonce = /<style nonce="([^"]+)">/.exec(page.text)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(parsePolicy(page.headers.get('content-security-policy'))['style-src']).toEqual([
        "'self'",
        `'nonce-${nonce}'`,
      ]);
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);

    // An address of no page is drawn by the app too, with its styles.
    const missing = await server.client().get('/no-such-page');
    expect(missing.status).toBe(404);
    const nonce = /<style nonce="([^"]+)">/.exec(missing.text)?.[1];
    expect(parsePolicy(missing.headers.get('content-security-policy'))['style-src']).toContain(`'nonce-${nonce}'`);
  });

  it('serves the shell the service worker precaches with a nonce its own headers name', async () => {
    const shell = await server.client().get('/index.html?__WB_REVISION__=abc');
    expect(shell.status).toBe(200);
    const nonce = /<style nonce="([^"]+)">/.exec(shell.text)?.[1];
    expect(nonce).toBeDefined();
    expect(parsePolicy(shell.headers.get('content-security-policy'))['style-src']).toContain(`'nonce-${nonce}'`);
  });

  it("allows the app's own scripts, styles, workers and connections, the video players' frames, and nothing inline", async () => {
    const page = await server.client().get('/');
    const policy = parsePolicy(page.headers.get('content-security-policy'));
    expect(policy).toMatchObject({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'img-src': ["'self'", 'https://res.cloudinary.com/everydotorg/'],
      'media-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      // 'self': the Share dialog's preview of the embedded player (issue 28).
      'frame-src': ["'self'", 'https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
      'worker-src': ["'self'"],
      'manifest-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    });
    const sources = Object.values(policy).flat();
    expect(sources).not.toContain("'unsafe-inline'");
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources.filter((source) => STRIPE_HOSTS.test(source))).toEqual([]);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  it("puts the pages' policy, without a nonce, on every other answer but JSON", async () => {
    for (const response of [
      await server.client().get('/favicon.svg'),
      await server.client().get('/media/images/missing-400.webp'),
    ]) {
      const policy = parsePolicy(response.headers.get('content-security-policy'));
      expect(policy['style-src']).toEqual(["'self'"]);
      expect(policy['script-src']).toEqual(["'self'"]);
      expect(response.headers.get('permissions-policy')).toBeTruthy();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('lets a JSON answer load nothing and be framed nowhere, whatever its status', async () => {
    for (const response of [
      await server.client().get('/api/site'),
      await server.client().get('/api/does-not-exist'),
      await server.client().post('/api/login', { json: { email: 'nobody@example.org' } }),
    ]) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(parsePolicy(response.headers.get('content-security-policy'))).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('denies the powerful features the app never uses and keeps what the video players need', async () => {
    const header = (await server.client().get('/')).headers.get('permissions-policy')!;
    const features = Object.fromEntries(header.split(', ').map((entry) => entry.split('=') as [string, string]));
    for (const feature of ['camera', 'microphone', 'geolocation', 'usb', 'display-capture', 'payment']) {
      expect(features[feature]).toBe('()');
    }
    for (const feature of ['autoplay', 'encrypted-media', 'fullscreen', 'picture-in-picture']) {
      expect(features[feature]).toBe('(self "https://www.youtube-nocookie.com" "https://player.vimeo.com")');
    }
  });

  it('sends no HSTS over plain HTTP, nor when an untrusted client claims HTTPS', async () => {
    expect((await server.client().get('/')).headers.get('strict-transport-security')).toBeNull();
    const direct = await serverWith({ TRUST_PROXY: 'false' });
    const claimed = await direct.client().get('/api/site', { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.status).toBe(200);
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('with Stripe configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith({ ...FAKE_STRIPE_KEYS });
  });

  it("allows Stripe.js, its frames, 3D Secure's and its API, and nothing more of Stripe", async () => {
    const page = await server.client().get('/projects/anything/donate');
    const policy = parsePolicy(page.headers.get('content-security-policy'));
    expect(policy['script-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(policy['frame-src']).toEqual([
      "'self'",
      'https://www.youtube-nocookie.com',
      'https://player.vimeo.com',
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
    for (const directive of ['style-src', 'img-src', 'media-src', 'worker-src', 'form-action', 'default-src']) {
      expect(policy[directive]!.filter((source) => STRIPE_HOSTS.test(source))).toEqual([]);
    }
    expect(Object.values(policy).flat()).not.toContain("'unsafe-inline'");
  });

  it("lets Stripe's frames ask for a wallet payment and keep their popups", async () => {
    const page = await server.client().get('/');
    expect(page.headers.get('permissions-policy')).toContain(
      'payment=(self "https://js.stripe.com" "https://*.js.stripe.com")',
    );
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });
});

describe('HSTS behind HTTPS', () => {
  it('is sent when PUBLIC_URL is https', async () => {
    const server = await serverWith({ PUBLIC_URL: 'https://music.example.org' });
    for (const path of ['/', '/api/site']) {
      expect((await server.client().get(path)).headers.get('strict-transport-security')).toBe('max-age=31536000');
    }
  });

  it('is sent when the trusted proxy says the request came over HTTPS, and only then', async () => {
    const server = await serverWith({ TRUST_PROXY: 'true' });
    const overHttps = await server.client().get('/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const overHttp = await server.client().get('/', { headers: { 'x-forwarded-proto': 'http' } });
    expect(overHttp.headers.get('strict-transport-security')).toBeNull();
  });

  it('is not sent when PUBLIC_URL is plain http', async () => {
    const server = await serverWith({ PUBLIC_URL: 'http://localhost:3000' });
    const page = await server.client().get('/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });
});
