import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { fundraisers, fundraiserTracks, jobs } from '../../server/db/schema';
import { audioMessages } from '../../server/infra/audio/transcode';
import { wav } from '../fixtures/audio';
import { createArtist, createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// The track pipeline (issue 5) with the real ffmpeg on small generated WAVs.

const server = useTestServer();

function trackRow(id: number) {
  return server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, id)).get()!;
}

async function expectMp3(file: string, maxSeconds?: number) {
  expect(fs.existsSync(file)).toBe(true);
  const { format } = await parseFile(file);
  expect(format.container).toBe('MPEG');
  expect(format.codec).toBe('MPEG 1 Layer 3');
  expect(format.bitrate).toBe(192_000);
  expect(format.codecProfile).toBe('CBR');
  if (maxSeconds !== undefined) expect(format.duration).toBeLessThanOrEqual(maxSeconds);
  return format;
}

describe('track processing', () => {
  it('makes each track and the preview ready, with a duration, loudness and valid renditions', async () => {
    const owner = await verifiedUser(server, 'pipeline@example.org');
    const artist = await createArtist(owner);
    const uploads = await uploadMusic(owner, 1);
    uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 33, frequency: 440 }), 'long.wav'));
    const created = await createFundraiser(owner, { artistId: artist.id, uploads });
    expect(created.tracksList.map((track) => track.status)).toEqual(['processing', 'processing']);
    expect(created.previewTrackStatus).toBe('processing');

    await server.jobs.drain();

    const answer = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${created.id}`)).json);
    expect(answer.tracksList.map((track) => [track.status, track.durationSeconds, track.error])).toEqual([
      ['ready', 1, undefined],
      ['ready', 33, undefined],
    ]);
    expect(answer.previewTrackStatus).toBe('ready');

    const long = trackRow(answer.tracksList[1]!.id);
    expect(long.loudnessLufs).toBeGreaterThan(-30);
    expect(long.loudnessLufs).toBeLessThan(0);
    const stream = await expectMp3(server.media.streamFile(long.streamFile!));
    expect(stream.duration).toBeGreaterThan(32.5);
    await expectMp3(server.media.previewFile(long.previewFile!), 30);

    const row = server.db.select().from(fundraisers).where(eq(fundraisers.id, created.id)).get()!;
    await expectMp3(server.media.streamFile(row.previewTrackStreamFile!));
    expect(row.previewTrackDurationSeconds).toBe(1);
  });

  it('fails a corrupt file after its retries and a silent one at once, with messages for the owner only', async () => {
    const owner = await verifiedUser(server, 'broken@example.org');
    const corrupt = Buffer.concat([wav({ seconds: 0 }).subarray(0, 12), Buffer.from('not audio at all'.repeat(300))]);
    const uploads = await uploadMusic(owner, 0);
    uploads.tracks.push(await uploadTrack(owner, corrupt, 'corrupt.wav'));
    uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 1, frequency: 0 }), 'silent.wav'));
    const created = await createFundraiser(owner, { uploads, publish: true });

    // Retries are minutes apart; the drain fast-forwards through them.
    await server.jobs.drain({ skipBackoff: true });

    const answer = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${created.id}`)).json);
    expect(answer.tracksList.map((track) => [track.status, track.error])).toEqual([
      ['failed', audioMessages.unreadable],
      ['failed', audioMessages.silent],
    ]);
    const [corruptTrack, silentTrack] = answer.tracksList.map((track) => trackRow(track.id));
    expect(corruptTrack!.streamFile).toBeNull();
    expect(silentTrack!.streamFile).toBeNull();
    const attempts = server.db
      .select()
      .from(jobs)
      .all()
      .filter((job) => job.kind === 'process-track' && job.status === 'failed')
      .map((job) => job.attempts)
      .sort();
    expect(attempts).toEqual([1, 5]);

    const guest = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${created.id}`)).json);
    expect(guest.tracksList.map((track) => track.error)).toEqual([undefined, undefined]);
    expect(guest.previewTrackStatus).toBeUndefined();
  });

  it('processes only replaced tracks on update, and removes the old renditions', async () => {
    const owner = await verifiedUser(server, 'replace@example.org');
    const created = await createFundraiser(owner, { tracks: 2 });
    await server.jobs.drain();
    const before = created.tracksList.map((track) => trackRow(track.id));
    const replacement = await uploadTrack(owner, wav({ seconds: 2, frequency: 520 }), 'new.wav');
    const edit = (await owner.get(`/api/fundraisers/${created.id}`)).json as Record<string, unknown>;
    const updated = await owner.patch(`/api/fundraisers/${created.id}/update`, {
      json: {
        ...edit,
        charityEin: created.charityEin,
        donationMinimumCents: created.donationMinimumCents,
        fundraisingGoalCents: created.fundraisingGoalCents,
        albumCover: created.albumCover,
        previewTrackName: created.previewTrackName,
        previewTrackFile: created.previewTrackFile,
        trackList: [
          { id: before[0]!.id, name: 'Kept', file: before[0]!.uploadId },
          { id: before[1]!.id, name: 'Replaced', file: replacement },
        ],
      },
    });
    expect(updated.status).toBe(200);
    const queued = server.db
      .select()
      .from(jobs)
      .all()
      .filter((job) => job.status === 'queued');
    expect(queued.map((job) => job.kind).sort()).toEqual(['process-track', 'remove-renditions']);

    await server.jobs.drain();
    const answer = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${created.id}`)).json);
    expect(answer.tracksList.map((track) => [track.name, track.status, track.durationSeconds])).toEqual([
      ['Kept', 'ready', 1],
      ['Replaced', 'ready', 2],
    ]);
    expect(answer.tracksList[0]!.id).toBe(before[0]!.id);
    expect(trackRow(before[0]!.id).streamFile).toBe(before[0]!.streamFile);
    expect(fs.existsSync(server.media.streamFile(before[1]!.streamFile!))).toBe(false);
    expect(fs.existsSync(server.media.previewFile(before[1]!.previewFile!))).toBe(false);
  });

  it('runs in the background once the runner is started', async () => {
    const owner = await verifiedUser(server, 'background@example.org');
    const created = await createFundraiser(owner, { tracks: 1 });
    await server.jobs.start();
    try {
      const status = async () =>
        fundraiserSchema.parse((await owner.get(`/api/fundraisers/${created.id}`)).json).tracksList[0]!.status;
      await expect.poll(status, { timeout: 15_000 }).toBe('ready');
    } finally {
      await server.jobs.stop();
    }
  });
});
