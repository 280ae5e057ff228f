import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { fundraiserTracks, uploads } from '../server/db/schema';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';

// Issue 5, Delivery: the album zip is streamed while it is built, so a 1 GB album costs the
// server a few buffers, not a gigabyte. Streams GET /api/fundraisers/{id}/download for an album
// of four 256 MB WAV originals to the end from another process, sampling this process's RSS, next to a bare node:http
// server piping the same four files one after another (no zip) in the same run. Issue 13: each
// original's CRC-32 is recorded at upload, so the zip is as fast as reading the files.

const TRACKS = 4;
const TRACK_BYTES = 256 * 1024 * 1024;
const MB = 1024 * 1024;

/** A WAV original of `bytes`, written 1 MB at a time (never held whole); answers its CRC-32. */
export async function writeBigWav(file: string, bytes: number): Promise<number> {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(bytes - 8, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22); // stereo
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(bytes - 44, 40);
  // Not silence: bytes that vary, as music does (nothing here compresses them, but be fair).
  const chunk = Buffer.alloc(MB);
  for (let i = 0; i < chunk.length; i += 2) chunk.writeInt16LE(Math.round(Math.sin(i / 37) * 12_000), i);
  let crc32 = 0;
  await pipeline(
    (function* () {
      for (let left = bytes, part = header; left > 0; left -= part.length, part = chunk.subarray(0, left)) {
        crc32 = zlib.crc32(part, crc32);
        yield part;
      }
    })(),
    fs.createWriteStream(file),
  );
  return crc32;
}

export type Download = { bytes: number; seconds: number; firstByteMs: number; peakGrowthMb: number; status: number };

/**
 * The reader: another process, so the RSS sampled here is the server's alone (a reader in this
 * process would add the garbage of the gigabyte it received). Prints its figures as JSON.
 */
const READER = `
  const http = require('node:http');
  const started = performance.now();
  let bytes = 0, firstByteMs = 0;
  http.get(process.env.URL, { headers: JSON.parse(process.env.HEADERS) }, (res) => {
    res.on('data', (chunk) => { if (bytes === 0) firstByteMs = performance.now() - started; bytes += chunk.length; });
    res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, bytes, firstByteMs, seconds: (performance.now() - started) / 1000 })));
  });`;

/** Has another process read the whole answer while this one samples its own RSS. */
export async function download(url: string, headers: Record<string, string>, baselineRss: number): Promise<Download> {
  let peak = baselineRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const reader = spawn(process.execPath, ['-e', READER], {
      env: { ...process.env, URL: url, HEADERS: JSON.stringify(headers) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(reader, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the reader of ${url} exited with ${code}`);
    const figures = JSON.parse(output) as Omit<Download, 'peakGrowthMb'>;
    return { ...figures, peakGrowthMb: (Math.max(peak, process.memoryUsage().rss) - baselineRss) / MB };
  } finally {
    clearInterval(sampler);
  }
}

/** The baseline of the download benchmarks: a bare node:http server piping `files` one after another, no zip. */
export async function bareFileServer(files: string[]) {
  const server = http.createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (const file of files) {
      await new Promise<void>((resolve, reject) =>
        fs
          .createReadStream(file)
          .on('end', () => resolve())
          .on('error', reject)
          .pipe(res, { end: false }),
      );
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

export function idleRss() {
  global.gc?.();
  return process.memoryUsage().rss;
}

export async function benchZipMemory() {
  const server = await startTestServer();
  const owner = await verifiedUser(server, 'zip-owner@example.org');
  const fundraiser = await createFundraiser(owner, { tracks: TRACKS });
  const cookie = [...owner.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  // Replace the small originals the fixture uploaded with big ones: the download reads whatever
  // file each track's upload names, exactly as it would a real 256 MB upload, with the size and
  // checksum an upload records.
  const originals = server.db
    .select({ id: fundraiserTracks.uploadId })
    .from(fundraiserTracks)
    .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
    .all()
    .map(({ id }) => ({ id: id!, path: server.media.trackFile(id!, 'wav') }));
  const started = performance.now();
  for (const { id, path } of originals) {
    const crc32 = await writeBigWav(path, TRACK_BYTES);
    server.db.update(uploads).set({ bytes: TRACK_BYTES, crc32 }).where(eq(uploads.id, id)).run();
  }
  const albumFiles = originals.map(({ path }) => path);
  const totalMb = (originals.length * TRACK_BYTES) / MB;
  const writeSeconds = (performance.now() - started) / 1000;

  const { server: bare, url: bareUrl } = await bareFileServer(albumFiles);
  const appUrl = `${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`;
  const appHeaders = { cookie, 'x-forwarded-for': owner.ip };

  try {
    // Warm-up: the page cache holds the files for both runs, and the HTTP client is set up.
    await download(bareUrl, {}, idleRss());
    const bareBaseline = idleRss();
    const bareRun = await download(bareUrl, {}, bareBaseline);
    const appBaseline = idleRss();
    const appRun = await download(appUrl, appHeaders, appBaseline);
    if (appRun.status !== 200 || appRun.bytes < TRACKS * TRACK_BYTES) {
      throw new Error(`the album download answered ${appRun.status} with ${appRun.bytes} bytes`);
    }

    const show = (name: string, run: Download, baselineRss: number, baseline?: Download) =>
      console.log(
        `${name.padEnd(56)} peak RSS +${run.peakGrowthMb.toFixed(0)} MB over ${(baselineRss / MB).toFixed(0)} MB idle, ` +
          `${(run.bytes / MB / run.seconds).toFixed(0)} MB/s, first byte ${run.firstByteMs.toFixed(1)} ms` +
          (baseline ? `  ${(run.bytes / run.seconds / (baseline.bytes / baseline.seconds)).toFixed(2)}× bare` : ''),
      );
    console.log(
      `\nAlbum zip: ${TRACKS} WAV originals, ${totalMb.toFixed(0)} MB (written in ${writeSeconds.toFixed(1)} s), read to the end`,
    );
    show('bare node:http piping the files, no zip', bareRun, bareBaseline);
    show('GET /api/fundraisers/{id}/download (stored, known CRCs)', appRun, appBaseline, bareRun);
  } finally {
    bare.close();
    for (const { path } of originals) fs.rmSync(path, { force: true });
    await server.close();
  }
}
