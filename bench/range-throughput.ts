import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { fundraiserTracks } from '../server/db/schema';
import { parseRange } from '../shared/http-range';
import { newRenditionName } from '../server/infra/storage/media';
import { mp3Frames } from '../tests/fixtures/audio';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { startTestServer, strongPassword, verifiedUser } from '../tests/fixtures/test-server';
import { CHILD_FLAG, type RangeJob, type RangeResult } from './range-load';
import { seeded } from './measure';

// Issue 5, Delivery: a full stream through the whole app (session, canStream, the rendition
// lookup, send-file's validators and Range handling) against a bare node:http server answering
// the same file with fs.createReadStream and the same Range parsing, in the same run. Whole-file
// GETs measure raw throughput; random 256 KB ranges are what a seeking player asks for. The load
// generator runs in a process of its own; the servers' CPU time per request is printed too.

const FILE_BYTES = 20 * 1024 * 1024;
const RANGE_BYTES = 256 * 1024;
const MB = 1024 * 1024;

/** One run's figures, with the CPU time this process (the servers') spent during it. */
type Result = RangeResult & { cpuMicros: number };

/** Several runs as one: their sums, and the latencies of all their requests. */
const combined = (runs: Result[]): Result => ({
  requests: runs.reduce((sum, run) => sum + run.requests, 0),
  bytes: runs.reduce((sum, run) => sum + run.bytes, 0),
  seconds: runs.reduce((sum, run) => sum + run.seconds, 0),
  cpuMicros: runs.reduce((sum, run) => sum + run.cpuMicros, 0),
  latencies: runs.flatMap((run) => run.latencies),
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** The `round`th of `rounds` equal parts of a list. */
const share = <T>(list: T[], round: number, rounds: number) =>
  list.slice((round * list.length) / rounds, ((round + 1) * list.length) / rounds);

/** Runs jobs in the forked load generator (bench/range-load.ts), one at a time. */
function loadGenerator() {
  const child = fork(fileURLToPath(new URL('./range-load.ts', import.meta.url)), [CHILD_FLAG], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    run(job: RangeJob): Promise<Result> {
      const cpuBefore = process.cpuUsage();
      return new Promise((resolve, reject) => {
        child.once('message', (message: { result?: RangeResult; error?: string }) => {
          const cpu = process.cpuUsage(cpuBefore);
          if (message.result) resolve({ ...message.result, cpuMicros: cpu.user + cpu.system });
          else reject(new Error(message.error));
        });
        child.send(job);
      });
    },
    stop: () => child.disconnect(),
  };
}

/** The comparison server: node:http, fs.createReadStream and the server's own parseRange. */
function bareFileServer(file: string) {
  return http.createServer((req, res) => {
    const size = fs.statSync(file).size;
    const range = req.headers.range === undefined ? 'ignore' : parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    const { start, end } = range === 'ignore' ? { start: 0, end: size - 1 } : range;
    const headers: Record<string, string> = {
      'content-type': 'audio/mpeg',
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
    };
    if (range !== 'ignore') headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range === 'ignore' ? 200 : 206, headers);
    fs.createReadStream(file, { start, end }).pipe(res);
  });
}

const line = (name: string, result: Result, baseline?: Result) => {
  const mbPerSecond = result.bytes / MB / result.seconds;
  const perSecond = result.requests / result.seconds;
  const cpu = result.cpuMicros / result.requests;
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const ratio = baseline ? `  ${(mbPerSecond / (baseline.bytes / MB / baseline.seconds)).toFixed(2)}× bare` : '';
  console.log(
    `${name.padEnd(44)} ${mbPerSecond.toFixed(0).padStart(6)} MB/s ${perSecond.toFixed(0).padStart(6)} req/s  ` +
      `p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p99 ${percentile(sorted, 0.99).toFixed(1)} ms  ` +
      `CPU ${cpu.toFixed(0)} µs/req${ratio}`,
  );
};

export async function benchRangeThroughput({
  wholeRequests = 160,
  rangeRequests = 6000,
  concurrency = 16,
  rounds = 4,
} = {}) {
  const server = await startTestServer();
  const email = 'range-owner@example.org';
  const fundraiser = await createFundraiser(await verifiedUser(server, email), { tracks: 1 });
  // The owner's own session, as a browser gets it.
  const owner = server.client();
  const login = await owner.post('/api/login', { form: { email, password: strongPassword } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  const cookie = [...owner.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  // The rendition as the track pipeline leaves it: a generated name, the row marked ready. Its
  // bytes are MPEG frames; the server never looks inside, so only the size matters here.
  const track = server.db
    .select({ id: fundraiserTracks.id })
    .from(fundraiserTracks)
    .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
    .get()!;
  const rendition = newRenditionName();
  const file = server.media.streamFile(rendition);
  fs.writeFileSync(file, mp3Frames(FILE_BYTES));
  server.db
    .update(fundraiserTracks)
    .set({ status: 'ready', streamFile: rendition, durationSeconds: 874 })
    .where(eq(fundraiserTracks.id, track.id))
    .run();
  const appUrl = `${server.baseUrl}/api/tracks/${track.id}/stream?v=${rendition.replace(/\.mp3$/, '')}`;
  const appHeaders = { cookie, 'x-forwarded-for': owner.ip };

  const bare = bareFileServer(file);
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  // Random 256 KB windows anywhere in the file, the same sequence for both servers.
  const random = seeded(5);
  const ranges = Array.from({ length: rangeRequests }, () => {
    const start = Math.floor(random() * (FILE_BYTES - RANGE_BYTES));
    return { start, end: start + RANGE_BYTES - 1 };
  });

  const load = loadGenerator();
  const bareJob = { url: bareUrl, headers: {}, concurrency, fileBytes: FILE_BYTES };
  const appJob = { url: appUrl, headers: appHeaders, concurrency, fileBytes: FILE_BYTES };
  try {
    // Warm-up: connections, the page cache and the JIT, on both.
    for (const job of [bareJob, appJob]) {
      await load.run({ ...job, total: 10 });
      await load.run({ ...job, total: 500, ranges });
    }
    // Taken in turns, a share of the requests at a time, so that whatever else the machine is
    // doing weighs on both alike.
    const runs = {
      bareWhole: [] as Result[],
      appWhole: [] as Result[],
      bareRanges: [] as Result[],
      appRanges: [] as Result[],
    };
    for (let round = 0; round < rounds; round++) {
      const pairs = [
        [runs.bareWhole, { ...bareJob, total: wholeRequests / rounds }],
        [runs.appWhole, { ...appJob, total: wholeRequests / rounds }],
        [runs.bareRanges, { ...bareJob, total: rangeRequests / rounds, ranges: share(ranges, round, rounds) }],
        [runs.appRanges, { ...appJob, total: rangeRequests / rounds, ranges: share(ranges, round, rounds) }],
      ] as const;
      // Every other round the app goes first.
      const order = round % 2 === 0 ? [0, 1, 2, 3] : [1, 0, 3, 2];
      for (const index of order) {
        const [into, job] = pairs[index]!;
        into.push(await load.run(job));
      }
    }
    const bareWhole = combined(runs.bareWhole);
    const appWhole = combined(runs.appWhole);
    const bareRanges = combined(runs.bareRanges);
    const appRanges = combined(runs.appRanges);

    console.log(
      `\nTrack stream: a ${FILE_BYTES / MB} MB rendition, ${concurrency} concurrent clients (another process), ` +
        `owner's session, ${rounds} rounds taken in turns`,
    );
    line(`bare node:http, ${wholeRequests} whole GETs`, bareWhole);
    line(`GET /api/tracks/{id}/stream, whole`, appWhole, bareWhole);
    line(`bare node:http, ${rangeRequests} 256 KB ranges`, bareRanges);
    line(`GET /api/tracks/{id}/stream, 256 KB ranges`, appRanges, bareRanges);
  } finally {
    load.stop();
    bare.close();
    await server.close();
  }
}
