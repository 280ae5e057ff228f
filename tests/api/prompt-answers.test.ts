import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../fixtures/test-server';

// The app answers an API request whose work is done at once (nearly all reads: better-sqlite3
// answers synchronously) at once, not as a promise: @hono/node-server then writes it on its fast
// path, and no step of the chain costs a promise (server/http/handler-chain.ts, issue 24). The
// answers themselves are the same either way; this is what a middleware that always waits would
// quietly take away.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/** The app's own answer to `path`, in-process, and whether it came at once. */
async function ask(path: string, init: RequestInit = {}) {
  const answer = server.app.fetch(new Request(`${server.baseUrl}${path}`, init));
  return { atOnce: !(answer instanceof Promise), response: await answer };
}

/** This process's random prefix and its count of requests (request-context.ts). */
const REQUEST_ID = /^[\da-f]{16}-[\da-z]+$/;

describe('an API answer made at once', () => {
  it('comes back at once, with every header it carries, signed in or not, found or refused', async () => {
    const client = server.client();
    await registerUser(client, 'prompt@example.org');
    const cookie = client.cookieHeader();

    const signedIn = await ask('/api/user', { headers: { cookie, 'accept-encoding': 'gzip, br' } });
    expect(signedIn.atOnce).toBe(true);
    expect(signedIn.response.status).toBe(200);
    expect(await signedIn.response.json()).toMatchObject({ email: 'prompt@example.org' });
    expect(signedIn.response.headers.get('cache-control')).toBe('private, no-store');
    expect(signedIn.response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(signedIn.response.headers.get('x-content-type-options')).toBe('nosniff');

    const visitor = await ask('/api/user');
    expect(visitor).toMatchObject({ atOnce: true, response: { status: 401 } });
    expect(visitor.response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(visitor.response.headers.get('x-request-id')).not.toBe(signedIn.response.headers.get('x-request-id'));

    const missing = await ask('/api/fundraisers/slug/no-such-album');
    expect(missing).toMatchObject({ atOnce: true, response: { status: 404 } });
    expect(await missing.response.json()).toMatchObject({ message: 'Fundraiser not found.' });

    expect(await ask('/api/site')).toMatchObject({ atOnce: true, response: { status: 200 } });
  });

  it('comes as a promise when a step must wait, with the same headers', async () => {
    const login = await ask('/api/login', {
      method: 'POST',
      // No Origin: an in-process request has no Host to compare it with (a client that sends
      // neither is not a browser, and is let through: same-origin.ts).
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'nobody@example.org', password: 'wrong-password-1' }).toString(),
    });
    expect(login.atOnce).toBe(false);
    expect(login.response.status).toBe(401);
    expect(login.response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(login.response.headers.get('cache-control')).toBe('private, no-store');
  });
});
