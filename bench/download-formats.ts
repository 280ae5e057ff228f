import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { fundraiserTracks, transcodes, uploads } from '../server/db/schema';
import { encodeTrack, encodings, type TranscodeFormat } from '../server/infra/audio/encode';
import { fileChecksum } from '../server/infra/storage/checksum';
import { createFundraiser } from '../tests/fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';
import { bareFileServer, download, type Download, idleRss, writeBigWav } from './zip-memory';

// Issue 27: download formats. (1) How long ffmpeg takes per minute of audio for each format,
// against decoding the same minute to nothing (the floor any format pays), median of three with
// the spread. (2) A zip of prepared files from the cache against a bare node:http server piping
// the same files (≥ 0.8× asked). (3) The server's RSS growth while it prepares a 1 GB album in
// FLAC (≤ 16 MB asked): ffmpeg does the work in its own process, the server only streams.

const MB = 1024 * 1024;
const FORMATS: TranscodeFormat[] = ['mp3-320', 'mp3-v0', 'aac-256', 'opus-128', 'flac', 'alac', 'wav', 'offline-low'];
const RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** A minute of pink noise over a tone, 44.1 kHz stereo 16-bit: harder to encode than a pure tone, as music is. */
function minuteOfMusic(ffmpeg: string, file: string) {
  const made = spawnSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'anoisesrc=d=60:c=pink:r=44100:a=0.25'],
    ...['-f', 'lavfi', '-i', 'sine=f=220:d=60:r=44100'],
    ...['-filter_complex', 'amix=inputs=2', '-ac', '2', '-c:a', 'pcm_s16le', file],
  ]);
  if (made.status !== 0) throw new Error(`could not make the benchmark's audio: ${made.stderr}`);
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return (performance.now() - started) / 1000;
}

async function transcodeTimes(server: Awaited<ReturnType<typeof startTestServer>>) {
  const input = path.join(server.dataDir, 'minute.wav');
  minuteOfMusic(server.deps.ffmpeg.path, input);
  const out = (name: string) => path.join(server.dataDir, name);
  const decode = () =>
    server.deps.ffmpeg.run(['-hide_banner', '-nostdin', '-i', input, '-f', 'null', '-'], 120_000).then((run) => {
      if (run.code !== 0) throw new Error(run.stderr);
    });
  await decode(); // warm the page cache and the binary
  const floor: number[] = [];
  for (let run = 0; run < RUNS; run++) floor.push(await timed(decode));
  console.log(`\nTranscode time per minute of audio (44.1 kHz stereo; ${server.deps.ffmpeg.path}), median of ${RUNS}`);
  console.log(`${'decode only (the floor)'.padEnd(26)} ${median(floor).toFixed(2)} s  (spread ${spread(floor)} s)`);
  const tags = { title: 'Bench', artist: 'Bench', album: 'Bench', trackNumber: 1, trackTotal: 1, comment: 'Bench' };
  for (const format of FORMATS) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const output = out(`bench-${format}-${run}.${encodings[format].extension}`);
      times.push(
        await timed(() =>
          encodeTrack(server.deps.ffmpeg, { input, source: { sampleRate: 44_100 }, output, format, tags }),
        ),
      );
      fs.rmSync(output, { force: true });
    }
    console.log(
      `${format.padEnd(26)} ${median(times).toFixed(2)} s  (spread ${spread(times)} s)  ${(median(times) / median(floor)).toFixed(1)}× decoding`,
    );
  }
}

export async function benchDownloadFormats() {
  const server = await startTestServer();
  try {
    await transcodeTimes(server);
    await zipFromCache(server);
  } finally {
    await server.close();
  }
  await preparingMemory();
}

/** Four 128 MB WAV files made "prepared" in the cache, zipped by the app and piped bare, side by side. */
async function zipFromCache(server: Awaited<ReturnType<typeof startTestServer>>) {
  const owner = await verifiedUser(server, 'formats-bench@example.org');
  const fundraiser = await createFundraiser(owner, { tracks: 4, publish: true });
  await server.jobs.drain(); // formats are offered for processed tracks
  // What the cache would hold after preparing WAV: the originals' own bytes, under transcode names.
  const prepare = await owner.post(`/api/music-library/album/${fundraiser.id}/formats/wav`);
  if (prepare.status !== 202) throw new Error(`preparing answered ${prepare.status}`);
  const rows = server.db.select().from(transcodes).all();
  const files: string[] = [];
  for (const row of rows) {
    const name = `bench-${row.id}.wav`;
    const file = server.media.transcodeFile(name);
    await writeBigWav(file, 128 * MB);
    const { crc32, bytes } = await fileChecksum(file);
    server.db
      .update(transcodes)
      .set({ status: 'ready', file: name, bytes, crc32 })
      .where(eq(transcodes.id, row.id))
      .run();
    files.push(file);
  }
  const { server: bare, url: bareUrl } = await bareFileServer(files);
  const appUrl = `${server.baseUrl}/api/music-library/album/${fundraiser.id}/download?format=wav`;
  const headers = { cookie: owner.cookieHeader(), 'x-forwarded-for': owner.ip };
  try {
    await download(bareUrl, {}, idleRss()); // the page cache holds the files for every run
    const bareRuns: Download[] = [];
    const appRuns: Download[] = [];
    for (let run = 0; run < RUNS; run++) {
      bareRuns.push(await download(bareUrl, {}, idleRss()));
      const app = await download(appUrl, headers, idleRss());
      if (app.status !== 200) throw new Error(`the format download answered ${app.status}`);
      appRuns.push(app);
    }
    const speed = (run: Download) => run.bytes / MB / run.seconds;
    const ratios = appRuns.map((run, index) => speed(run) / speed(bareRuns[index]!));
    console.log(`\nZip of prepared files from the cache: ${files.length} × 128 MB, median of ${RUNS}`);
    console.log(`${'bare node:http piping the files'.padEnd(44)} ${median(bareRuns.map(speed)).toFixed(0)} MB/s`);
    console.log(
      `${'GET …/download?format=wav'.padEnd(44)} ${median(appRuns.map(speed)).toFixed(0)} MB/s  ` +
        `${median(ratios).toFixed(2)}× bare (spread ${spread(ratios)}, worst ${Math.min(...ratios).toFixed(2)}×), ` +
        `peak RSS +${Math.max(...appRuns.map((run) => run.peakGrowthMb)).toFixed(0)} MB`,
    );
  } finally {
    bare.close();
  }
}

/** The server prepares a 1 GB album (four 256 MB WAV originals) in FLAC while this process samples its RSS. */
async function preparingMemory() {
  const server = await startTestServer();
  try {
    const owner = await verifiedUser(server, 'formats-memory@example.org');
    const fundraiser = await createFundraiser(owner, { tracks: 4, publish: true });
    // A small album first: what is paid once per process (music-metadata's code, the compiled
    // paths) is not what an album costs.
    const warmUp = await createFundraiser(owner, { tracks: 1, publish: true });
    await server.jobs.drain();
    await owner.post(`/api/music-library/album/${warmUp.id}/formats/flac`);
    await server.jobs.drain();
    const originals = server.db
      .select({ id: fundraiserTracks.uploadId })
      .from(fundraiserTracks)
      .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
      .all();
    for (const { id } of originals) {
      const crc32 = await writeBigWav(server.media.trackFile(id!, 'wav'), 256 * MB);
      server.db
        .update(uploads)
        .set({ bytes: 256 * MB, crc32 })
        .where(eq(uploads.id, id!))
        .run();
    }
    const growths: number[] = [];
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Each run makes the album anew: the cache forgets the last run's files.
      server.db.delete(transcodes).where(eq(transcodes.format, 'flac')).run();
      const baseline = idleRss();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      times.push(
        await timed(async () => {
          const asked = await owner.post(`/api/music-library/album/${fundraiser.id}/formats/flac`);
          if (asked.status !== 202) throw new Error(`preparing answered ${asked.status}`);
          await server.jobs.drain();
        }),
      );
      clearInterval(sampler);
      growths.push((peak - baseline) / MB);
      const status = await owner.get(`/api/music-library/album/${fundraiser.id}/formats/flac`);
      if ((status.json as { status?: string }).status !== 'ready') throw new Error(`not ready: ${status.text}`);
    }
    console.log(
      `\nPreparing a 1 GB album (4 × 256 MB WAV, ${((4 * 256 * MB) / (44_100 * 4) / 60).toFixed(0)} minutes) in FLAC, median of ${RUNS}: ` +
        `${median(times).toFixed(1)} s, server RSS +${median(growths).toFixed(1)} MB at its peak (spread ${spread(growths)}, ` +
        `worst +${Math.max(...growths).toFixed(1)} MB; asked: ≤ 16 MB; after a small album's warm-up)`,
    );
  } finally {
    await server.close();
  }
}
