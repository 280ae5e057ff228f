import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drainBody } from './http-load';
import {
  compiledServer,
  freePort,
  jobsSettled,
  type RunningServer,
  startProcess,
  tempDataDir,
  treeRssMb,
} from './processes';

/**
 * Issue 25's load test: listeners streaming with Range and donations coming in at once, against
 * one server process and against two (WEB_CONCURRENCY=2) on this machine. LISTENERS players each
 * fetch their track's next 256 KB range as soon as the last one has arrived (a closed loop: the
 * most the server can give), signed in as the demo admin (a session, canStream, the grants); beside
 * them DONATIONS_PER_SECOND donations (the payment intent, then the test card), each from an
 * address of its own. The load generator is a process of its own. Prints stream requests per
 * second and MB/s, p50/p99 latency of each kind, errors (must be 0) and two processes' throughput
 * over one's. BENCH_LOAD_SECONDS sets the length (60 by default).
 */

const LISTENERS = 500;
const DONATIONS_PER_SECOND = 20;
const RANGE_BYTES = 256 * 1024;
const CHILD_FLAG = '--listeners-load-child';

type Track = { url: string; bytes: number };
type LoadJob = {
  baseUrl: string;
  cookie: string;
  tracks: Track[];
  fundraiserId: number;
  seconds: number;
};
type Figures = { count: number; errors: number; p50: number; p99: number; firstError?: string };
type LoadResult = { seconds: number; streams: Figures & { bytes: number }; donations: Figures };

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

function figures(latencies: number[], errors: string[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: latencies.length,
    errors: errors.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    firstError: errors[0],
  };
}

/** The load itself, in the forked process. */
async function runLoad(job: LoadJob): Promise<LoadResult> {
  // fetch's own pool: keep-alive connections, as many as requests in flight.
  const until = performance.now() + job.seconds * 1000;
  const streamLatencies: number[] = [];
  const streamErrors: string[] = [];
  const donationLatencies: number[] = [];
  const donationErrors: string[] = [];
  let bytes = 0;

  async function listener(index: number) {
    const track = job.tracks[index % job.tracks.length]!;
    let offset = (index * 7 * RANGE_BYTES) % track.bytes;
    while (performance.now() < until) {
      const end = Math.min(offset + RANGE_BYTES, track.bytes) - 1;
      const t0 = performance.now();
      try {
        const response = await fetch(track.url, {
          headers: {
            cookie: job.cookie,
            range: `bytes=${offset}-${end}`,
            'x-forwarded-for': `10.1.${index >> 8}.${index & 255}`,
          },
        });
        const received = await drainBody(response);
        if (response.status !== 206 || received !== end - offset + 1)
          throw new Error(`stream answered ${response.status}, ${received} bytes`);
        bytes += received;
        streamLatencies.push(performance.now() - t0);
      } catch (error) {
        streamErrors.push(String(error));
      }
      offset = end + 1 >= track.bytes ? 0 : end + 1;
    }
  }

  let donationNumber = 0;
  async function donate() {
    const n = ++donationNumber;
    const post = (pathname: string, body: unknown) =>
      fetch(`${job.baseUrl}${pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.2.${(n >> 8) & 255}.${n & 255}` },
        body: JSON.stringify(body),
      });
    const t0 = performance.now();
    try {
      const intent = await post('/api/transactions/create-payment-intent', {
        name: 'Load Fan',
        email: `load-${process.pid}-${n}@bench.example`,
        donationCents: 1000,
        tipCents: 100,
        projectId: job.fundraiserId,
      });
      const { clientSecret } = (await intent.json()) as { clientSecret?: string };
      if (intent.status !== 200 || !clientSecret) throw new Error(`payment intent answered ${intent.status}`);
      const paid = await post('/api/test-payments/confirm', {
        clientSecret,
        cardNumber: '4242424242424242',
        expiry: '12/40',
        cvc: '123',
      });
      await paid.arrayBuffer();
      if (paid.status !== 200) throw new Error(`confirm answered ${paid.status}`);
      donationLatencies.push(performance.now() - t0);
    } catch (error) {
      donationErrors.push(String(error));
    }
  }

  const started = performance.now();
  const donations: Promise<void>[] = [];
  const ticker = setInterval(() => {
    if (performance.now() < until) donations.push(donate());
  }, 1000 / DONATIONS_PER_SECOND);
  await Promise.all(Array.from({ length: LISTENERS }, (_, index) => listener(index)));
  clearInterval(ticker);
  await Promise.all(donations);
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    streams: { ...figures(streamLatencies, streamErrors), bytes },
    donations: figures(donationLatencies, donationErrors),
  };
}

/** Runs one load in a forked process (the server under test keeps its cores to itself). */
function loadInChild(job: LoadJob): Promise<LoadResult> {
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: LoadResult; error?: string }) => {
      child.disconnect();
      if (message.result) resolve(message.result);
      else reject(new Error(message.error));
    });
    child.once('error', reject);
    child.send(job);
  });
}

/** The demo's processed tracks as stream URLs, with their renditions' sizes. */
function demoTracks(dataDir: string, baseUrl: string): Track[] {
  const db = new Database(path.join(dataDir, 'soundcause.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT id, stream_file AS file FROM fundraiser_tracks WHERE status = 'ready' AND stream_file IS NOT NULL`,
      )
      .all() as { id: number; file: string }[];
    return rows.map((row) => ({
      url: `${baseUrl}/api/tracks/${row.id}/stream?v=${row.file.replace(/\.mp3$/, '')}`,
      bytes: fs.statSync(path.join(dataDir, 'media', 'streams', row.file)).size,
    }));
  } finally {
    db.close();
  }
}

async function signIn(server: RunningServer): Promise<string> {
  const [, email, password] = /demo admin: (\S+) \/ (\S+)/.exec(server.output()) ?? [];
  if (!email || !password) throw new Error('the server printed no demo admin');
  const response = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  if (response.status !== 200) throw new Error(`demo admin login answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

const line = (label: string, result: LoadResult) => {
  const { streams, donations, seconds } = result;
  const errors = streams.errors + donations.errors;
  return (
    `  ${label.padEnd(22)} streams ${(streams.count / seconds).toFixed(0).padStart(5)} req/s ` +
    `${(streams.bytes / seconds / 1024 / 1024).toFixed(0).padStart(4)} MB/s  p50 ${streams.p50.toFixed(0)} ms  p99 ${streams.p99.toFixed(0)} ms` +
    `  |  donations ${(donations.count / seconds).toFixed(1)}/s  p50 ${donations.p50.toFixed(0)} ms  p99 ${donations.p99.toFixed(0)} ms` +
    `  |  errors ${errors}${errors ? ` (first: ${streams.firstError ?? donations.firstError})` : ''}`
  );
};

export async function benchListenersLoad() {
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
  const compiled = await compiledServer();
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  try {
    const start = async (processes: number) =>
      startProcess(process.execPath, compiled.args, {
        ...compiled.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        WEB_CONCURRENCY: String(processes),
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'true',
      });
    // The first start seeds the demo and transcodes its tracks.
    server = await start(1);
    await jobsSettled(dataDir);
    const demoAdmin = server.output();
    await server.stop();

    console.log(
      `\nLoad test: ${LISTENERS} listeners streaming 256 KB ranges back to back (signed in, Range) and ${DONATIONS_PER_SECOND} donations a second` +
        ` (payment intent and test card) for ${seconds} s, the load generator in its own process`,
    );
    const results: LoadResult[] = [];
    for (const processes of [1, 2]) {
      server = await start(processes);
      const cookie = await signIn({ ...server, output: () => demoAdmin });
      const tracks = demoTracks(dataDir, server.baseUrl);
      const featured = (await (await fetch(`${server.baseUrl}/api/fundraisers/featured`)).json()) as { id: number }[];
      const result = await loadInChild({
        baseUrl: server.baseUrl,
        cookie,
        tracks,
        fundraiserId: featured[0]!.id,
        seconds,
      });
      results.push(result);
      console.log(
        line(`${processes} server process${processes > 1 ? 'es' : ''}`, result) +
          `  |  RSS ${treeRssMb(server.pid).toFixed(0)} MB`,
      );
      await server.stop();
      server = undefined;
    }
    const [one, two] = results as [LoadResult, LoadResult];
    const rate = (result: LoadResult) => result.streams.count / result.seconds;
    console.log(`  two processes / one: ${(rate(two) / rate(one)).toFixed(2)}× the stream throughput`);
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// Forked: run the one load the parent sends.
if (process.argv.includes(CHILD_FLAG) && process.send) {
  process.once('message', (job: LoadJob) => {
    runLoad(job).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

// `npx tsx bench/listeners-load.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}` && !process.argv.includes(CHILD_FLAG)) await benchListenersLoad();
