import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  alone,
  bareServer,
  compiledServer,
  freePort,
  get,
  jobsSettled,
  type RunningServer,
  settledValue,
  startProcess,
  tempDataDir,
  treeRssMb,
} from './processes';

/**
 * Issue 24, where visitors land: requests per second at 100 connections on the home page, browse,
 * a fundraiser page and the featured and search answers, from the production server as `npm start`
 * runs it (`npm run serve`'s node flags and entry point, restarted on the demo once it was seeded
 * and its tracks processed, access lines logged), each next to a bare node:http process sending the very same bytes, measured in turns.
 * The load generator (autocannon) is a process of its own, as are both servers. Three rounds of
 * each: the median, the spread, the worst. Then 200 connections: the slowest request. And the
 * server's RSS idle after every landing page was served once, and over the minute after the load,
 * as V8 gives back what the load grew.
 */

const SECONDS = 5;
const ROUNDS = 3;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd', accept: 'text/html,application/json' };
const autocannonCli = path.resolve('node_modules/autocannon/autocannon.js');

type Run = { perSecond: number; p50: number; p99: number; max: number; failed: number };

/** autocannon in its own process, for `seconds`, with `connections` kept open. */
function autocannon(url: string, connections: number, seconds = SECONDS): Promise<Run> {
  const headers = Object.entries(BROWSER).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [autocannonCli, '--json', '-c', String(connections), '-d', String(seconds), ...headers, url],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        const result = JSON.parse(output) as {
          requests: { average: number };
          latency: { p50: number; p99: number; max: number };
          non2xx: number;
          errors: number;
          timeouts: number;
        };
        resolve({
          perSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          failed: result.non2xx + result.errors + result.timeouts,
        });
      } catch (error) {
        reject(new Error(`autocannon gave no result for ${url}: ${String(error)}`));
      }
    });
  });
}

const byRate = (runs: Run[]) => [...runs].sort((a, b) => a.perSecond - b.perSecond);
const medianOf = (runs: Run[]) => byRate(runs)[Math.floor(runs.length / 2)]!;

/** A process's RSS once it has had nothing to do for a while (V8 gives back what a spell grew). */
async function idleRssMb(pid: number) {
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  return settledValue(() => treeRssMb(pid));
}

/** The RSS the load's end left, as V8 gives it back: after 20 s and 60 s, and when under the target. */
const AFTER_LOAD_TARGET_MB = 120;
async function rssAfterLoad(pid: number) {
  const readings: number[] = [];
  for (let second = 1; second <= 60; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readings.push(treeRssMb(pid));
  }
  const under = readings.findIndex((mb) => mb <= AFTER_LOAD_TARGET_MB);
  return {
    atEnd: readings[0]!,
    at20: readings[19]!,
    at60: readings[59]!,
    underTargetAfter: under === -1 ? 'not within 60 s' : `after ${under + 1} s`,
  };
}

export async function benchLandingThroughput() {
  const dist = path.resolve('dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('\nLanding pages under load: skipped (run `npm run build` first)');
    return;
  }
  const compiled = await compiledServer();
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  try {
    const start = async (processes = 1) =>
      startProcess(process.execPath, compiled.args, {
        ...compiled.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        CLIENT_DIST_DIR: dist,
        WEB_CONCURRENCY: String(processes),
      });
    // The first start seeds the demo and transcodes its tracks; the site then runs as it does
    // from any later start, which is what is measured (the first start's figure is printed too).
    server = await start();
    await jobsSettled(dataDir);
    await alone(server.pid);
    const firstStartMb = await idleRssMb(server.pid);
    await server.stop();
    server = await start();
    const base = server.baseUrl;
    const featured = JSON.parse((await get(`${base}/api/fundraisers/featured`, {})).body.toString()) as {
      urlSlug: string;
    }[];
    const slug = featured[0]!.urlSlug;
    const routes = [
      '/',
      '/browse/projects',
      `/projects/${slug}`,
      '/api/fundraisers/featured',
      '/api/fundraisers/search?page=0&pageSize=20&searchTerm=&genre=&charityEin=',
    ];

    for (const route of routes) await get(`${base}${route}`, BROWSER);
    const idleMb = await idleRssMb(server.pid);
    /** One process's median at 100 connections and its run at 200 (`<route> peak`), by route. */
    const oneProcess = new Map<string, Run>();

    console.log(
      `\nWhere visitors land: requests per second at 100 connections (autocannon, its own process), ${ROUNDS} rounds of ${SECONDS} s,` +
        ` the production server beside a bare node:http process sending the same bytes`,
    );
    for (const route of routes) {
      const answer = await get(`${base}${route}`, BROWSER);
      if (answer.status !== 200) throw new Error(`${route} answered ${answer.status}`);
      const bare = await bareServer(answer);
      const apps: Run[] = [];
      const bares: Run[] = [];
      try {
        await autocannon(`${bare.baseUrl}/`, 100, 1);
        await autocannon(`${base}${route}`, 100, 1);
        for (let round = 0; round < ROUNDS; round++) {
          bares.push(await autocannon(`${bare.baseUrl}/`, 100));
          apps.push(await autocannon(`${base}${route}`, 100));
        }
      } finally {
        await bare.stop();
      }
      const peak = await autocannon(`${base}${route}`, 200);
      const app = medianOf(apps);
      oneProcess.set(route, app);
      oneProcess.set(`${route} peak`, peak);
      const baseline = medianOf(bares);
      const [worst, best] = [byRate(apps)[0]!, byRate(apps).at(-1)!];
      const failed = [...apps, peak].reduce((sum, run) => sum + run.failed, 0);
      console.log(
        `  ${route.padEnd(28).slice(0, 60)} ${app.perSecond.toFixed(0).padStart(6)} req/s (${worst.perSecond.toFixed(0)}–${best.perSecond.toFixed(0)})` +
          `  p50 ${app.p50} ms  p99 ${app.p99} ms  |  bare, same ${answer.body.length} bytes: ${baseline.perSecond.toFixed(0)} req/s` +
          `  ${(baseline.perSecond / app.perSecond).toFixed(1)}× slower  |  200 connections: slowest ${peak.max} ms` +
          (failed ? `  ${failed} FAILED` : ''),
      );
    }
    const loaded = await rssAfterLoad(server.pid);
    console.log(
      `  RSS of the server: ${idleMb.toFixed(0)} MB idle after serving each of these once (target ≤ 100 MB);` +
        ` after the load ${loaded.atEnd.toFixed(0)} MB, 20 s later ${loaded.at20.toFixed(0)} MB, 60 s later ${loaded.at60.toFixed(0)} MB` +
        ` (≤ ${AFTER_LOAD_TARGET_MB} MB ${loaded.underTargetAfter})` +
        ` (on its first start, once the demo was seeded and transcoded: ${firstStartMb.toFixed(0)} MB)`,
    );
    await server.stop();

    // The same routes from two server processes (WEB_CONCURRENCY=2) on this machine's two cores,
    // which the load generator shares: what a second process buys at 100 connections, and what
    // it does for the slowest request at 200.
    server = await start(2);
    const twoBase = server.baseUrl;
    console.log(
      `  Two server processes (WEB_CONCURRENCY=2), ${ROUNDS} rounds of ${SECONDS} s at 100 connections, then 200: ` +
        `the median beside one process's above`,
    );
    for (const route of routes) await get(`${twoBase}${route}`, BROWSER);
    for (const route of routes) {
      await autocannon(`${twoBase}${route}`, 100, 1);
      const runs: Run[] = [];
      for (let round = 0; round < ROUNDS; round++) runs.push(await autocannon(`${twoBase}${route}`, 100));
      const peak = await autocannon(`${twoBase}${route}`, 200);
      const two = medianOf(runs);
      const one = oneProcess.get(route)!;
      const [worst, best] = [byRate(runs)[0]!, byRate(runs).at(-1)!];
      const failed = [...runs, peak].reduce((sum, run) => sum + run.failed, 0);
      console.log(
        `  ${route.padEnd(28).slice(0, 60)} ${two.perSecond.toFixed(0).padStart(6)} req/s (${worst.perSecond.toFixed(0)}–${best.perSecond.toFixed(0)})` +
          `  p50 ${two.p50} ms  p99 ${two.p99} ms  |  ${(two.perSecond / one.perSecond).toFixed(2)}× one process` +
          `  |  200 connections: slowest ${peak.max} ms (one process: ${oneProcess.get(`${route} peak`)!.max} ms)` +
          (failed ? `  ${failed} FAILED` : ''),
      );
    }
    console.log(
      `  RSS of the two servers and the process that started them: ${treeRssMb(server.pid).toFixed(0)} MB after the load`,
    );
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npx tsx bench/landing-throughput.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) await benchLandingThroughput();
