import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { fundraisers, uploads } from '../server/db/schema';
import { createFundraiser, details } from '../tests/fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';
import { albumZip, CHILD_FLAG, type UploadJob } from './upload-client';

// Issue 3: "a 100 MB image must not be held in memory"; issue 13: a 500 MB upload grows the
// server's RSS by at most 16 MB. A 500 MB album zip (the largest upload there is: a legacy
// fundraiser's, PATCH /api/fundraisers/{id}/updatev1, up to 1000 MB) is streamed by a client in
// another process (bench/upload-client.ts), while this process samples its own peak RSS, next to
// a bare node:http server here that reads and discards the same bytes, in the same run. The zip
// is real: the server streams it to disk with its CRC-32, reads it through once for the album zip
// check, and keeps it.

const MB = 1024 * 1024;

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

/** Uploads through the forked client, one at a time; an answer other than 200 fails the benchmark. */
function uploadClient() {
  const child = fork(fileURLToPath(new URL('./upload-client.ts', import.meta.url)), [CHILD_FLAG], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    send: (job: UploadJob) =>
      new Promise<void>((resolve, reject) => {
        child.once('message', (message: { result?: { status: number; text: string }; error?: string }) => {
          if (message.result?.status === 200) resolve();
          else reject(new Error(`${job.url}: ${message.error ?? `${message.result?.status} ${message.result?.text}`}`));
        });
        child.send(job);
      }),
    stop: () => child.disconnect(),
  };
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
  const appJob = {
    url: `${server.baseUrl}/api/fundraisers/${legacy.id}/updatev1`,
    method: 'PATCH',
    headers: { cookie: owner.cookieHeader(), 'x-forwarded-for': owner.ip },
    fields,
  };
  const bareJob = { url: bareUrl, method: 'POST', headers: {}, fields };
  const client = uploadClient();
  const zipBytes = albumZip().size;

  try {
    await client.send(bareJob); // warm-up: the client's own set-up, and this process's
    const baseline = await peakRssDuring(() => client.send(bareJob));
    const app = await peakRssDuring(() => client.send(appJob));
    // It was kept, whole.
    const kept = server.db.select().from(fundraisers).where(eq(fundraisers.id, legacy.id)).get()!;
    const row = server.db.select().from(uploads).where(eq(uploads.id, kept.tracksZipUploadId!)).get()!;
    if (row.bytes !== zipBytes) throw new Error(`the album zip was kept with ${row.bytes} bytes, not ${zipBytes}`);

    const line = (name: string, run: typeof app) =>
      console.log(
        `${name.padEnd(68)} +${run.growthMb.toFixed(0)} MB over ${run.beforeMb.toFixed(0)} MB, ` +
          `${run.seconds.toFixed(1)} s (${(zipBytes / MB / run.seconds).toFixed(0)} MB/s)`,
      );
    console.log(
      `\nUpload memory: one ${(zipBytes / MB).toFixed(0)} MB multipart upload from another process, peak RSS growth of the server's`,
    );
    line('baseline: bare node:http, bytes discarded', baseline);
    line('PATCH /api/fundraisers/{id}/updatev1 (album zip: disk, CRC, check)', app);
  } finally {
    client.stop();
    bare.close();
    await server.close();
  }
}
