import http from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { fundraisers, uploads } from '../server/db/schema';
import { zipLayout } from '../server/infra/storage/zip-stream';
import { createFundraiser, details } from '../tests/fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';

// Issue 3: "a 100 MB image must not be held in memory"; issue 13: a 500 MB upload grows the
// server's RSS by at most 16 MB. Streams a 500 MB album zip (the largest upload there is: a legacy
// fundraiser's, PATCH /api/fundraisers/{id}/updatev1, up to 1000 MB) from a generator, the client
// holding one 1 MB chunk at a time, and samples the process's peak RSS, next to a bare node:http
// server that reads and discards the same bytes, in the same run. The zip is real: the server
// streams it to disk with its CRC-32, reads it through once for the album zip check, and keeps it.

const MB = 1024 * 1024;
const TOTAL = 500 * MB;
/** Bytes that vary, as music does (a stored zip of them is what an album zip of WAVs is like). */
const CHUNK = Buffer.from(Array.from({ length: MB }, (_, i) => (i * 31 + (i >> 9)) & 0xff));

/** One stored WAV entry of TOTAL bytes, its CRC-32 worked out first as the zip's header needs it. */
function albumZip() {
  let crc32 = 0;
  for (let done = 0; done < TOTAL; done += MB) crc32 = zlib.crc32(CHUNK, crc32);
  const entry = { path: '', name: 'Album/01 Long song.wav', size: TOTAL, mtime: new Date(), crc32 };
  return zipLayout([entry]);
}

const BOUNDARY = 'BENCHBOUNDARY';

function multipartBody(fields: Record<string, string>, zip: ReturnType<typeof albumZip>): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="albumZip"; filename="album.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    );
    for (const part of zip.parts) {
      if (part.kind === 'bytes') yield part.bytes;
      else for (let sent = 0; sent < part.entry.size; sent += MB) yield CHUNK;
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  })();
}

async function peakRssDuring(task: () => Promise<unknown>) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  await task();
  clearInterval(sampler);
  return { growthMb: (peak - before) / MB, beforeMb: before / MB, seconds: (performance.now() - started) / 1000 };
}

async function upload(
  url: string,
  method: string,
  body: AsyncIterable<Uint8Array>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: Readable.toWeb(Readable.from(body)) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text}`);
}

export async function benchUploadMemory() {
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const server = await startTestServer();
  const owner = await verifiedUser(server, 'upload-bench@example.org');
  // A legacy (v1) fundraiser, whose music is one album zip.
  const legacy = await createFundraiser(owner);
  server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, legacy.id)).run();
  const fields = {
    ...details,
    charityEin: legacy.charityEin,
    donationMinimumCents: '500',
    fundraisingGoalCents: '100000',
    albumCover: legacy.albumCover ?? '',
    previewTrackName: '',
    previewTrackFile: legacy.previewTrackFile ?? '',
    trackList: JSON.stringify(['Long song']),
  };
  const zip = albumZip();
  const appUrl = `${server.baseUrl}/api/fundraisers/${legacy.id}/updatev1`;
  const appHeaders = { cookie: owner.cookieHeader(), 'x-forwarded-for': owner.ip };

  try {
    await upload(bareUrl, 'POST', multipartBody(fields, zip)); // warm-up: the HTTP client's own set-up
    const baseline = await peakRssDuring(() => upload(bareUrl, 'POST', multipartBody(fields, zip)));
    const app = await peakRssDuring(() => upload(appUrl, 'PATCH', multipartBody(fields, zip), appHeaders));
    // It was kept, whole, with the checksum it streamed with.
    const kept = server.db.select().from(fundraisers).where(eq(fundraisers.id, legacy.id)).get()!;
    const row = server.db.select().from(uploads).where(eq(uploads.id, kept.tracksZipUploadId!)).get()!;
    if (row.bytes !== zip.size) throw new Error(`the album zip was kept with ${row.bytes} bytes, not ${zip.size}`);

    const line = (name: string, run: typeof app) =>
      console.log(
        `${name.padEnd(68)} +${run.growthMb.toFixed(0)} MB over ${run.beforeMb.toFixed(0)} MB, ` +
          `${run.seconds.toFixed(1)} s (${(zip.size / MB / run.seconds).toFixed(0)} MB/s)`,
      );
    console.log(
      `\nUpload memory: one ${(zip.size / MB).toFixed(0)} MB multipart upload, peak RSS growth of the whole process`,
    );
    line('baseline: bare node:http, bytes discarded', baseline);
    line('PATCH /api/fundraisers/{id}/updatev1 (album zip: disk, CRC, check)', app);
  } finally {
    bare.close();
    await server.close();
  }
}
