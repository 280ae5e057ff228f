import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  bareHonoServer,
  bareServer,
  compiledServer,
  cpuMicros,
  freePort,
  get,
  jobsSettled,
  startProcess,
  tempDataDir,
} from './processes';

/**
 * Issue 13's API overhead: the server's CPU time per request (user + system, from /proc/<pid>/stat)
 * for an authenticated GET /api/user and for a fundraiser's GET /api/fundraisers/slug/{slug},
 * against a bare node:http process answering the very same bytes from memory. Both run as their
 * own processes; the load generator is this process (keep-alive, 16 in flight, a browser's
 * Accept-Encoding). The server under test is the compiled one (`npm run serve`) on the demo's
 * seeded SQLite file, logging its access lines as in production. Signed in means a fan's account.
 */

const IN_FLIGHT = 16;

/**
 * Each measurement has its own connections: an idle keep-alive connection the server closes
 * (after its keep-alive timeout) as a request is sent on it fails that request.
 */
const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

/** Requests for `seconds` with IN_FLIGHT in flight; answers how many were made. */
async function loadFor(url: string, headers: Record<string, string>, seconds: number) {
  const agent = newAgent();
  const until = performance.now() + seconds * 1000;
  let requests = 0;
  async function worker() {
    while (performance.now() < until) {
      const answer = await get(url, headers, agent);
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      requests++;
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  agent.destroy();
  return requests;
}

type Measured = { cpuPerRequest: number; perSecond: number };

/** The server process's CPU time per request over `seconds` of load. */
async function measureOnce(pid: number, url: string, headers: Record<string, string>, seconds: number) {
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  const requests = await loadFor(url, headers, seconds);
  const elapsed = (performance.now() - t0) / 1000;
  return { cpuPerRequest: (cpuMicros(pid) - cpu0) / requests, perSecond: requests / elapsed };
}

const median = (values: Measured[]) =>
  [...values].sort((a, b) => a.cpuPerRequest - b.cpuPerRequest)[Math.floor(values.length / 2)]!;

/**
 * The app and its bare baseline, warmed up, then measured in turns (the machine's load changes
 * from second to second, and both should see the same): the median of each.
 */
async function measurePair(
  app: { pid: number; url: string },
  bare: { pid: number; url: string },
  headers: Record<string, string>,
  rounds = 5,
  seconds = 1.5,
) {
  await loadFor(bare.url, headers, 1);
  await loadFor(app.url, headers, 1);
  const apps: Measured[] = [];
  const bares: Measured[] = [];
  for (let round = 0; round < rounds; round++) {
    bares.push(await measureOnce(bare.pid, bare.url, headers, seconds));
    apps.push(await measureOnce(app.pid, app.url, headers, seconds));
  }
  // Each round's ratio, its own app run over the bare run just before it: how much they vary.
  const ratios = apps.map((each, round) => each.cpuPerRequest / bares[round]!.cpuPerRequest).sort((a, b) => a - b);
  return { app: median(apps), baseline: median(bares), ratios };
}

export async function benchApiOverhead() {
  const compiled = await compiledServer();
  const dataDir = tempDataDir();
  const server = await startProcess(process.execPath, compiled.args, {
    ...compiled.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    CLIENT_DIST_DIR: path.join(dataDir, 'no-client'),
  });
  await jobsSettled(dataDir);

  const browser = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
  // A fan's account (registration signs in): the common signed-in visitor, who owns nothing here.
  const registered = await fetch(`${server.baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ firstName: 'Bench', lastName: 'Fan', email: 'fan@example.org', password: 'Bench!pass-1' }),
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.status}`);
  const cookie = registered.headers
    .getSetCookie()
    .map((each) => each.split(';')[0])
    .join('; ');
  const search = (await (await fetch(`${server.baseUrl}/api/fundraisers/search`)).json()) as {
    results: { urlSlug: string; tracksList: unknown[] }[];
  };
  const slug = search.results.reduce((most, each) => (each.tracksList.length > most.tracksList.length ? each : most));

  const cases = [
    { name: 'GET /api/user, signed in', path: '/api/user', headers: { ...browser, cookie } },
    {
      name: 'GET /api/fundraisers/slug/{slug}, visitor',
      path: `/api/fundraisers/slug/${slug.urlSlug}`,
      headers: browser,
    },
    {
      name: 'GET /api/fundraisers/slug/{slug}, signed in',
      path: `/api/fundraisers/slug/${slug.urlSlug}`,
      headers: { ...browser, cookie },
    },
  ];
  console.log(
    `\nAPI overhead: server CPU per request (utime + stime of its process), ${IN_FLIGHT} in flight, keep-alive, load from another process`,
  );
  for (const { name, path: pathname, headers } of cases) {
    const answer = await get(`${server.baseUrl}${pathname}`, headers);
    if (answer.status !== 200) throw new Error(`${pathname} answered ${answer.status}`);
    const bare = await bareServer(answer);
    const { app, baseline, ratios } = await measurePair(
      { pid: server.pid, url: `${server.baseUrl}${pathname}` },
      { pid: bare.pid, url: `${bare.baseUrl}/` },
      headers,
    );
    await bare.stop();
    const encoding = answer.headers['content-encoding'] ?? 'identity';
    console.log(
      `${name.padEnd(44)} ${app.cpuPerRequest.toFixed(0).padStart(5)} µs/req (${app.perSecond.toFixed(0)} req/s)` +
        `  bare node:http, same ${answer.body.length} bytes (${encoding}): ${baseline.cpuPerRequest.toFixed(0)} µs/req` +
        ` (${baseline.perSecond.toFixed(0)} req/s)  ${(app.cpuPerRequest / baseline.cpuPerRequest).toFixed(2)}×` +
        ` (rounds ${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}×, target ≤ 1.5×)`,
    );
  }
  // The floor under every row: the same bytes as the first through Hono alone, one route.
  const first = cases[0]!;
  const answer = await get(`${server.baseUrl}${first.path}`, first.headers);
  const [bare, hono] = [await bareServer(answer), await bareHonoServer(answer)];
  const {
    app: framework,
    baseline,
    ratios,
  } = await measurePair(
    { pid: hono.pid, url: `${hono.baseUrl}/` },
    { pid: bare.pid, url: `${bare.baseUrl}/` },
    first.headers,
  );
  await Promise.all([bare.stop(), hono.stop()]);
  console.log(
    `${'the framework alone (Hono, one route, same bytes)'.padEnd(44)} ${framework.cpuPerRequest.toFixed(0).padStart(5)} µs/req (${framework.perSecond.toFixed(0)} req/s)` +
      `  bare node:http: ${baseline.cpuPerRequest.toFixed(0)} µs/req  ${(framework.cpuPerRequest / baseline.cpuPerRequest).toFixed(2)}×` +
      ` (rounds ${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}×)`,
  );
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
