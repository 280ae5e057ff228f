import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { fundraiserTracks } from '../server/db/schema';
import { parseRange } from '../shared/http-range';
import { newRenditionName } from '../server/infra/storage/media';
import { mp3Frames } from '../tests/fixtures/audio';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { startTestServer, strongPassword, verifiedUser } from '../tests/fixtures/test-server';
import { drainBody } from './http-load';
import { seeded } from './measure';

// Issue 5, Delivery: a full stream through the whole app (session, canStream, the rendition
// lookup, send-file's validators and Range handling) against a bare node:http server answering
// the same file with fs.createReadStream and the same Range parsing, in the same run. Whole-file
// GETs measure raw throughput; random 256 KB ranges are what a seeking player asks for.

const FILE_BYTES = 20 * 1024 * 1024;
const RANGE_BYTES = 256 * 1024;
const MB = 1024 * 1024;

type Result = { requests: number; bytes: number; seconds: number; p50: number; p99: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * `total` GETs with `concurrency` in flight over keep-alive connections, each body read to the end
 * and dropped chunk by chunk (an arrayBuffer of 20 MB per request would measure the allocator).
 * `rangeFor(i)` gives request i's Range header; every answer is checked for status and length.
 */
async function run(
  url: string,
  total: number,
  concurrency: number,
  headers: Record<string, string>,
  rangeFor?: (i: number) => { start: number; end: number },
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      const i = next++;
      const range = rangeFor?.(i);
      const t0 = performance.now();
      const response = await fetch(url, {
        headers: range ? { ...headers, range: `bytes=${range.start}-${range.end}` } : headers,
      });
      const received = await drainBody(response);
      const expected = range ? range.end - range.start + 1 : FILE_BYTES;
      if (response.status !== (range ? 206 : 200) || received !== expected) {
        throw new Error(`${url} answered ${response.status} with ${received} bytes, not ${expected}`);
      }
      bytes += received;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: total, bytes, seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
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
  const ratio = baseline ? `  ${(mbPerSecond / (baseline.bytes / MB / baseline.seconds)).toFixed(2)}× bare` : '';
  console.log(
    `${name.padEnd(44)} ${mbPerSecond.toFixed(0).padStart(6)} MB/s ${perSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms${ratio}`,
  );
};

export async function benchRangeThroughput({ wholeRequests = 150, rangeRequests = 6000, concurrency = 16 } = {}) {
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
  const starts = Array.from({ length: rangeRequests }, () => Math.floor(random() * (FILE_BYTES - RANGE_BYTES)));
  const rangeFor = (i: number) => ({ start: starts[i]!, end: starts[i]! + RANGE_BYTES - 1 });

  // Warm-up: connections, the page cache and the JIT, on both.
  for (const [url, headers] of [
    [bareUrl, {}],
    [appUrl, appHeaders],
  ] as const) {
    await run(url, 10, concurrency, headers);
    await run(url, 500, concurrency, headers, rangeFor);
  }

  const bareWhole = await run(bareUrl, wholeRequests, concurrency, {});
  const appWhole = await run(appUrl, wholeRequests, concurrency, appHeaders);
  const bareRanges = await run(bareUrl, rangeRequests, concurrency, {}, rangeFor);
  const appRanges = await run(appUrl, rangeRequests, concurrency, appHeaders, rangeFor);

  console.log(`\nTrack stream: a ${FILE_BYTES / MB} MB rendition, ${concurrency} concurrent clients, owner's session`);
  line(`bare node:http, ${wholeRequests} whole GETs`, bareWhole);
  line(`GET /api/tracks/{id}/stream, whole`, appWhole, bareWhole);
  line(`bare node:http, ${rangeRequests} 256 KB ranges`, bareRanges);
  line(`GET /api/tracks/{id}/stream, 256 KB ranges`, appRanges, bareRanges);

  bare.close();
  await server.close();
}
