import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../fixtures/test-server';

// GET /api/health (issue 14): what systemd, Caddy and an outside monitor ask (deploy/). It asks
// the database, answers 200 or 503, and tells nothing else.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/health', () => {
  it('answers 200 while the database answers, and nobody may keep the answer', async () => {
    server = await startTestServer();
    const response = await server.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ ok: true });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers 503 once the database cannot be read, saying only that', async () => {
    server = await startTestServer();
    server.sqlite.close();
    const response = await server.client().get('/api/health');
    expect(response.status).toBe(503);
    expect(response.json).toEqual({ ok: false });
  });
});
