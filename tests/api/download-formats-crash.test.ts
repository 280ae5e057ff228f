import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPreparationSchema } from '../../shared/answers/formats';
import { identify, isRunning } from '../../server/infra/processes/identity';
import { wav } from '../fixtures/audio';
import { ffmpegProcessesFor, readDatabase } from '../fixtures/crash/checks';
import { freePort, ServerProcess } from '../fixtures/crash/server-process';
import { createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { killFfmpegFor, slowFfmpeg } from '../fixtures/slow-ffmpeg';
import { verifiedUser } from '../fixtures/test-server';
import { readZip } from '../fixtures/zips';

// Preparing a download format when the server is killed with SIGKILL mid-transcode (issue 27):
// the real server as its own process, a real (slowed) ffmpeg and SQLite file, killed and started
// again on the same data folder. The preparation carries on by itself and finishes.

let workDir: string | undefined;
let running: ServerProcess | undefined;

afterEach(async () => {
  await running?.kill();
  if (workDir) {
    killFfmpegFor(path.join(workDir, 'data'));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  running = undefined;
  workDir = undefined;
});

describe('a download format across kill -9', () => {
  it('resumes preparing after the server is killed mid-transcode, and finishes with one file per track', async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-format-crash-'));
    const dataDir = path.join(workDir, 'data');
    const server = new ServerProcess({
      dataDir,
      port: await freePort(),
      logFile: path.join(workDir, 'server.log'),
      // ffmpeg reads at its own speed: a 10 s track takes 10 s to transcode.
      env: { FFMPEG_PATH: slowFfmpeg(workDir) },
    });
    running = server;
    await server.start();
    const owner = await verifiedUser(server, 'owner@format-crash.test');
    const uploads = await uploadMusic(owner, 0);
    const long = await uploadTrack(owner, wav({ seconds: 10, sampleRate: 44_100 }), 'long.wav');
    uploads.tracks.push(long);
    const album = await createFundraiser(owner, { uploads, publish: true });
    // The track pipeline first (its own renditions), so that the only ffmpeg on the original next is the format's.
    await expect
      .poll(async () => (await owner.get(`/api/fundraisers/${album.id}`)).json, { timeout: 60_000, interval: 500 })
      .toMatchObject({ tracksList: [{ status: 'ready' }] });

    const url = `/api/music-library/album/${album.id}/formats/flac`;
    expect((await owner.post(url)).status).toBe(202);
    const input = path.join(dataDir, 'media', 'tracks', `${long}.wav`);
    await expect.poll(() => ffmpegProcessesFor(dataDir, input).length, { timeout: 15_000 }).toBe(1);
    const ffmpeg = identify(ffmpegProcessesFor(dataDir, input)[0]!)!;
    await server.kill();
    // ffmpeg dies with the server (its parent-death signal); its half-written file stays until the next start.
    await expect.poll(() => isRunning(ffmpeg), { timeout: 5000 }).toBe(false);

    await server.start();
    const status = async () => formatPreparationSchema.parse((await owner.get(url)).json);
    await expect.poll(async () => (await status()).status, { timeout: 60_000, interval: 500 }).toBe('ready');

    const job = readDatabase(dataDir, (db) =>
      db.prepare(`SELECT status, attempts, interruptions FROM jobs WHERE kind = 'transcode-track'`).get(),
    );
    expect(job).toMatchObject({ status: 'done', attempts: 1, interruptions: 1 });
    // Exactly the file the cache lists: what the killed ffmpeg half-wrote is gone.
    const files = readDatabase(dataDir, (db) =>
      db
        .prepare(`SELECT file FROM transcodes WHERE status = 'ready'`)
        .all()
        .map((row) => (row as { file: string }).file),
    );
    expect(fs.readdirSync(path.join(dataDir, 'media', 'transcodes')).sort()).toEqual(files.sort());

    const zip = await fetch(`${server.baseUrl}${(await status()).downloadUrl}`, {
      headers: { cookie: owner.cookieHeader() },
    });
    expect(zip.status).toBe(200);
    const zipFile = path.join(workDir, 'flac.zip');
    fs.writeFileSync(zipFile, Buffer.from(await zip.arrayBuffer()));
    const entries = await readZip(zipFile);
    expect(entries.map((entry) => entry.name)).toEqual(['01 - Track 1.flac', 'cover.jpg']);
    expect(entries[0]!.actualCrc).toBe(entries[0]!.declaredCrc);
    expect(ffmpegProcessesFor(dataDir)).toEqual([]);
  }, 150_000);
});
