import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer } from '../tests/fixtures/test-server';
import { load, report } from './http-load';

/**
 * Every API request resolves its session cookie against SQLite. This measures an authenticated
 * GET /api/user through the whole stack (origin check, session lookup, JSON) against a bare
 * node:http server answering the same JSON, on the same machine in the same run.
 */
export async function benchSessionLookup(total = 20_000, concurrency = 32) {
  const server = await startTestServer();
  const client = server.client();
  await client.post('/api/register', {
    json: { firstName: 'Bench', lastName: 'User', email: 'bench@example.org', password: 'Bench!pass1' },
  });
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const body = JSON.stringify((await client.get('/api/user')).json);

  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  await load(bareUrl, 2000, concurrency); // warm-up
  await load(`${server.baseUrl}/api/user`, 2000, concurrency, { cookie });
  const baseline = await load(bareUrl, total, concurrency);
  const app = await load(`${server.baseUrl}/api/user`, total, concurrency, { cookie });
  console.log(`\nSession lookup: ${total} requests, ${concurrency} concurrent`);
  report('baseline: bare node:http, same JSON', baseline);
  report('GET /api/user with a session (SQLite)', app, baseline);

  bare.close();
  await server.close();
}
