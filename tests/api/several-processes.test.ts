import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../fixtures/crash/server-process';
import { createFundraiser, editFormOf } from '../fixtures/fundraisers';
import { rawRequest, strongPassword, TestClient, verifiedUser } from '../fixtures/test-server';
import { fundraiserSchema } from '../../shared/answers/fundraisers';

// WEB_CONCURRENCY=2 (issue 25): two server processes share the port and the SQLite file. Each
// request here goes on a connection of its own, and node:cluster hands new connections to the
// processes in turn, so a write and the read after it are answered by different processes; the
// access log (each line names its process) proves they were.

const ADMIN = 'admin@processes.test';
const METRICS_TOKEN = 'several-processes-metrics-token';
let workDir: string;
let server: ServerProcess;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-processes-'));
  server = new ServerProcess({
    dataDir: path.join(workDir, 'data'),
    port: await freePort(),
    logFile: path.join(workDir, 'server.log'),
    env: {
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: ADMIN,
      ADMIN_PASSWORD: strongPassword,
      METRICS_TOKEN: METRICS_TOKEN,
    },
  });
  await server.start();
}, 90_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

let requestNumber = 0;

/** One request on a new connection, tagged so that the access log says which process answered. */
async function once(
  client: TestClient,
  method: string,
  pathname: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; text: string; requestId: string }> {
  const requestId = `several-${process.pid}-${++requestNumber}`;
  const body = json === undefined ? '' : JSON.stringify(json);
  const answer = await rawRequest(server.baseUrl, {
    method,
    path: pathname,
    body,
    headers: {
      ...headers,
      'x-request-id': requestId,
      'x-forwarded-for': client.ip,
      cookie: client.cookieHeader(),
      origin: server.baseUrl,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });
  return { ...answer, requestId };
}

/** Which process answered each request, from the access log (written within a turn of each). */
async function answeredBy(requestIds: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const deadline = Date.now() + 5000;
  while (found.size < requestIds.length && Date.now() < deadline) {
    for (const line of fs.readFileSync(server.options.logFile, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { requestId?: string; pid?: number };
      if (entry.requestId && entry.pid && requestIds.includes(entry.requestId)) found.set(entry.requestId, entry.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return found;
}

describe('several server processes on one port (WEB_CONCURRENCY=2)', () => {
  it('runs two server processes beside the one that started them', () => {
    expect(server.serverPids()).toHaveLength(2);
  });

  it('shows a fundraiser edited through one process fresh through the other at once, every time', async () => {
    const owner = await verifiedUser(server, 'owner@processes.test');
    const fundraiser = await createFundraiser(owner, { publish: true });
    // A published fundraiser is edited by an admin (its owner edits drafts only).
    const admin = server.client();
    expect((await admin.post('/api/login', { form: { email: ADMIN, password: strongPassword } })).status).toBe(200);
    const visitor = new TestClient(server.baseUrl);
    const crossings: [string, string][] = [];
    for (let round = 1; round <= 12; round++) {
      // The page is read first, so each process holds it in its cache before the edit.
      await once(visitor, 'GET', `/api/fundraisers/slug/${fundraiser.urlSlug}`);
      await once(visitor, 'GET', `/api/fundraisers/slug/${fundraiser.urlSlug}`);
      const description = `Edition ${round} of the liner notes.`;
      const edit = await once(
        admin,
        'PATCH',
        `/api/fundraisers/${fundraiser.id}/update`,
        editFormOf(fundraiser, { description }),
      );
      expect(edit.status, JSON.stringify(edit.json)).toBe(200);
      const read = await once(visitor, 'GET', `/api/fundraisers/slug/${fundraiser.urlSlug}`);
      expect(read.status).toBe(200);
      expect(fundraiserSchema.parse(read.json).description).toBe(description);
      crossings.push([edit.requestId, read.requestId]);
    }
    const pids = await answeredBy(crossings.flat());
    const crossed = crossings.filter(([edit, read]) => pids.get(edit) !== pids.get(read));
    expect(new Set(pids.values()).size).toBe(2);
    expect(crossed.length).toBeGreaterThanOrEqual(crossings.length / 3);
  });

  it('ends a session in every process at once when it logs out through one', async () => {
    const fan = await verifiedUser(server, 'fan@processes.test');
    const reads: string[] = [];
    // Both processes know the session.
    for (let i = 0; i < 2; i++) {
      const user = await once(fan, 'GET', '/api/user');
      expect(user.status).toBe(200);
      reads.push(user.requestId);
    }
    const logout = await once(fan, 'POST', '/api/logout');
    expect(logout.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const user = await once(fan, 'GET', '/api/user');
      expect(user.status).toBe(401);
      reads.push(user.requestId);
    }
    const pids = await answeredBy([...reads, logout.requestId]);
    const afterLogout = reads.slice(2);
    expect(afterLogout.some((read) => pids.get(read) !== pids.get(logout.requestId))).toBe(true);
  });
});

describe('metrics from several server processes', () => {
  it("answers a scrape through either process with both processes' counts summed", async () => {
    const visitor = new TestClient(server.baseUrl);
    const asked: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await once(visitor, 'GET', '/api/site');
      expect(answer.status).toBe(200);
      asked.push(answer.requestId);
    }
    const pids = await answeredBy(asked);
    expect(new Set(pids.values()).size).toBe(2);
    // Each server's series carries its slot; the two add up to what was asked.
    const series =
      /^soundcause_http_requests_total\{method="GET",route="\/api\/site",status="200",server="(\d+)"\} (\d+)$/;
    for (let scrape = 0; scrape < 2; scrape++) {
      const answer = await once(visitor, 'GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(answer.status).toBe(200);
      const counts = answer.text.split('\n').flatMap((line) => {
        const match = series.exec(line);
        return match ? [{ server: match[1], count: Number(match[2]) }] : [];
      });
      expect(counts.map((each) => each.server).sort()).toEqual(['0', '1']);
      expect(counts.reduce((sum, each) => sum + each.count, 0)).toBe(6);
      // The job queue is read once, by the process that started the servers.
      expect(answer.text).toMatch(/^process_resident_memory_bytes\{server="primary"\} \d+/m);
    }
  });
});

describe('a site whose every server process dies', () => {
  /** kill -9 of every server process, then waits for as many new ones. */
  async function killAll() {
    const before = server.serverPids();
    expect(before).toHaveLength(2);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    let now: number[] = [];
    while (Date.now() < deadline) {
      now = server.serverPids();
      if (now.length === 2 && now.every((pid) => !before.includes(pid))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(now).toHaveLength(2);
    expect(now.some((pid) => before.includes(pid))).toBe(false);
  }

  it('starts them again, again and again: the process that started them stays and serves through new ones', async () => {
    // The second time, the restarts wait a second or more (it keeps dying) with no server left.
    await killAll();
    await killAll();
    await expect
      .poll(async () => (await once(new TestClient(server.baseUrl), 'GET', '/api/health')).status, { timeout: 10_000 })
      .toBe(200);
    expect(server.running).toBe(true);
  }, 75_000);
});
