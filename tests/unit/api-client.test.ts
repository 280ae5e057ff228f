import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, UnexpectedDataError } from '../../client/api/errors';
import { apiRequest, errorMessage, setLoggedOutListener } from '../../client/api/http';

// The client's fetch wrapper against a real local HTTP server answering canned responses.
const answers: Record<string, { status: number; body: string; headers?: Record<string, string> }> = {
  '/user': {
    status: 200,
    body: JSON.stringify({ firstName: 'A', lastName: null, email: 'a@b.co', isEmailVerified: true }),
  },
  '/weird': { status: 200, body: JSON.stringify({ name: 'not a user' }) },
  '/dead': {
    status: 401,
    body: JSON.stringify({ code: 'OTHER', message: 'You need to log in first.' }),
    headers: { 'x-logged-out': 'true' },
  },
  '/form': { status: 400, body: JSON.stringify({ formErrors: [{ field: 'name', message: 'Name is required.' }] }) },
  '/coded': { status: 429, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'Slow down.' }) },
  '/text': { status: 400, body: 'Unable to save project. Please choose an artist and charity first' },
  '/crash': { status: 500, body: '<html>proxy error</html>' },
};

let base = '';
let server: http.Server;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const answer = answers[req.url ?? ''] ?? { status: 404, body: '{}' };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const failureOf = (path: string) =>
  apiRequest(`${base}${path}`, 'user').then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('apiRequest', () => {
  it('parses the answer with the shared schema', async () => {
    expect(await apiRequest(`${base}/user`, 'user')).toMatchObject({ email: 'a@b.co' });
  });

  it('says "Unexpected data returned from the server..." when the answer does not fit', async () => {
    const error = await failureOf('/weird');
    expect(error).toBeInstanceOf(UnexpectedDataError);
    expect(errorMessage(error, 'fallback')).toBe(
      'Unexpected data returned from the server. Please contact the provider if the problem persists.',
    );
  });

  it('calls the logged-out listener when a response carries x-logged-out', async () => {
    let calls = 0;
    setLoggedOutListener(() => calls++);
    const error = await failureOf('/dead');
    expect(calls).toBe(1);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    await apiRequest(`${base}/user`, 'user');
    expect(calls).toBe(1);
  });

  it('turns the two error envelopes and text bodies into ApiErrors', async () => {
    const form = (await failureOf('/form')) as ApiError;
    expect(form.formErrors).toEqual([{ field: 'name', message: 'Name is required.' }]);
    const coded = (await failureOf('/coded')) as ApiError;
    expect([coded.code, coded.message]).toEqual(['RATE_LIMITED', 'Slow down.']);
    expect(errorMessage(coded, 'fallback')).toBe('Slow down.');
    const text = (await failureOf('/text')) as ApiError;
    expect(text.text).toBe('Unable to save project. Please choose an artist and charity first');
  });

  it("falls back to the caller's message for failures without a server explanation", async () => {
    expect(errorMessage(await failureOf('/crash'), 'Something went wrong!')).toBe('Something went wrong!');
  });

  it('tells a request that never reached the server from a refusal, and leaves an abort as it is', async () => {
    // A port nobody listens on: the connection is refused, as with no network at all.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await apiRequest(`http://127.0.0.1:${port}/user`, 'user').catch((error: unknown) => error);
    expect(unreachable).toBeInstanceOf(NetworkError);
    expect(await failureOf('/crash')).not.toBeInstanceOf(NetworkError);

    const controller = new AbortController();
    controller.abort();
    const aborted = await apiRequest(`${base}/user`, 'user', { signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    expect((aborted as Error).name).toBe('AbortError');
  });
});
