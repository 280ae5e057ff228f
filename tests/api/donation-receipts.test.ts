import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { fundraiserTracks } from '../../server/db/schema';
import { wav } from '../fixtures/audio';
import { ffmpegProcessesFor } from '../fixtures/crash/checks';
import { donate } from '../fixtures/donations';
import { createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { killFfmpegFor, slowFfmpeg } from '../fixtures/slow-ffmpeg';
import { verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Receipts have workers of their own (issue 22): a donation's receipt goes out while every
// transcoding worker is busy with a long track, instead of waiting behind the album. The real job
// runner with its lanes as the server starts it, a real (slowed) ffmpeg, the outbox mailer.

const binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-slow-ffmpeg-'));
const server = useTestServer({ FFMPEG_PATH: slowFfmpeg(binDir), JOB_WORKERS: '1' });

afterAll(() => {
  killFfmpegFor(server.dataDir);
  fs.rmSync(binDir, { recursive: true, force: true });
});

const isReceipt = (message: string) => /^Subject: Your donation to /m.test(message);

describe('receipts beside transcoding', () => {
  it('sends a receipt while the only transcoding worker is busy with a long track', async () => {
    const owner = await verifiedUser(server, 'band@receipts.test');
    const uploads = await uploadMusic(owner, 0);
    const trackId = await uploadTrack(owner, wav({ seconds: 90 }), 'long.wav');
    uploads.tracks.push(trackId);
    const fundraiser = await createFundraiser(owner, { uploads, publish: true });
    const input = server.media.trackFile(trackId, 'wav');

    await server.jobs.start();
    // The one transcoding worker is taken by the long track (it runs 90 seconds).
    await expect.poll(() => ffmpegProcessesFor(server.dataDir, input).length, { timeout: 15_000 }).toBe(1);

    const email = 'fan@receipts.test';
    await donate(server, { fundraiserId: fundraiser.id, email });
    await expect.poll(() => server.outbox.messages(email).filter(isReceipt).length, { timeout: 15_000 }).toBe(1);

    // It did not wait for the transcode: that is still under way.
    expect(ffmpegProcessesFor(server.dataDir, input)).toHaveLength(1);
    const track = server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.uploadId, trackId)).get();
    expect(track?.status).toBe('processing');
  }, 60_000);
});
