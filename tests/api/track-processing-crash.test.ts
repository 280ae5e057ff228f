import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLine, identify, isRunning, type ProcessIdentity } from '../../server/infra/processes/identity';
import { wav } from '../fixtures/audio';
import { ffmpegProcessesFor, readDatabase } from '../fixtures/crash/checks';
import { freePort, ServerProcess } from '../fixtures/crash/server-process';
import { createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { killFfmpegFor, slowFfmpeg } from '../fixtures/slow-ffmpeg';
import { verifiedUser } from '../fixtures/test-server';

// The track pipeline when the server is killed with SIGKILL while ffmpeg works (issue 22): the
// real server as its own process, a real (slowed) ffmpeg, a real SQLite file, killed and started
// again on the same data folder.

const started: { server: ServerProcess; workDir: string }[] = [];

afterEach(async () => {
  for (const { server, workDir } of started.splice(0)) {
    await server.kill();
    killFfmpegFor(path.join(workDir, 'data'));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

/** A server whose ffmpeg is slow (and outlives it, if asked), with a draft holding one long track. */
async function serverWithLongTrack(options: { outlivesServer: boolean; trackSeconds: number }) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-transcode-crash-'));
  const dataDir = path.join(workDir, 'data');
  const server = new ServerProcess({
    dataDir,
    port: await freePort(),
    logFile: path.join(workDir, 'server.log'),
    env: { FFMPEG_PATH: slowFfmpeg(workDir, options), JOB_WORKERS: '1' },
  });
  started.push({ server, workDir });
  await server.start();
  const owner = await verifiedUser(server, 'owner@transcode.test');
  const uploads = await uploadMusic(owner, 0);
  const trackId = await uploadTrack(owner, wav({ seconds: options.trackSeconds }), 'long.wav');
  uploads.tracks.push(trackId);
  await createFundraiser(owner, { uploads });
  const input = path.join(dataDir, 'media', 'tracks', `${trackId}.wav`);
  return { server, dataDir, input };
}

/** The ffmpeg transcoding `input`, once exactly one does. */
async function theOneFfmpeg(dataDir: string, input: string): Promise<ProcessIdentity> {
  await expect.poll(() => ffmpegProcessesFor(dataDir, input).length, { timeout: 15_000 }).toBe(1);
  return identify(ffmpegProcessesFor(dataDir, input)[0]!)!;
}

/** The track's row and its job's, read from the database the server writes. */
function trackState(dataDir: string) {
  return readDatabase(dataDir, (db) => ({
    track: db.prepare(`SELECT status FROM fundraiser_tracks`).get() as { status: string },
    job: db
      .prepare(`SELECT status, attempts, interruptions, last_error AS lastError FROM jobs WHERE kind = 'process-track'`)
      .get() as { status: string; attempts: number; interruptions: number; lastError: string | null },
  }));
}

describe('transcoding across kill -9', () => {
  it('takes ffmpeg down with the server', async () => {
    const { server, dataDir, input } = await serverWithLongTrack({ outlivesServer: false, trackSeconds: 60 });
    const ffmpeg = await theOneFfmpeg(dataDir, input);
    await server.kill();
    // Nothing of the server ran after the kill: the kernel ends ffmpeg (its parent-death signal).
    await expect.poll(() => isRunning(ffmpeg), { timeout: 5000 }).toBe(false);
  }, 60_000);

  it(
    'ends the ffmpeg a killed server left and its files before running the track again, six kills in a row, ' +
      'and the track still becomes ready on its first attempt',
    async () => {
      const { server, dataDir, input } = await serverWithLongTrack({ outlivesServer: true, trackSeconds: 12 });
      for (let kill = 1; kill <= 6; kill++) {
        const left = await theOneFfmpeg(dataDir, input);
        const halfWritten = (commandLine(left.pid) ?? []).filter((word) => word.endsWith('.mp3'));
        expect(halfWritten).toHaveLength(2);
        await server.kill();
        expect(isRunning(left), 'ffmpeg outlives the killed server').toBe(true);
        await expect.poll(() => halfWritten.every((file) => fs.existsSync(file))).toBe(true);

        // Once the restarted server answers, what the dead one left is gone, and exactly one
        // ffmpeg (a new one) transcodes the track.
        await server.start();
        expect(isRunning(left), `kill ${kill}: the old ffmpeg is ended at start`).toBe(false);
        expect(halfWritten.filter((file) => fs.existsSync(file))).toEqual([]);
        const next = await theOneFfmpeg(dataDir, input);
        expect(next).not.toEqual(left);
      }

      await expect.poll(() => trackState(dataDir).track.status, { timeout: 60_000, interval: 250 }).toBe('ready');
      expect(trackState(dataDir).job).toMatchObject({ status: 'done', attempts: 1, interruptions: 6, lastError: null });
      // Nothing half-made is left: every stream file is one a track names (this one's and the
      // preview track's), and no ffmpeg and no record of one remains.
      const named = readDatabase(dataDir, (db) =>
        db
          .prepare(
            `SELECT stream_file AS name FROM fundraiser_tracks UNION SELECT preview_track_stream_file FROM fundraisers`,
          )
          .all()
          .map((row) => (row as { name: string | null }).name),
      );
      expect(fs.readdirSync(path.join(dataDir, 'media', 'streams')).sort()).toEqual(named.filter(Boolean).sort());
      expect(ffmpegProcessesFor(dataDir)).toEqual([]);
      expect(readDatabase(dataDir, (db) => db.prepare(`SELECT * FROM child_processes`).all())).toEqual([]);
    },
    180_000,
  );
});
