import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumFormatsSchema, formatPreparationSchema } from '../../shared/answers/formats';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import {
  DOWNLOAD_FORMAT_IDS,
  downloadFormats,
  deepWavReason,
  legacyAlbumReason,
  losslessUnavailableReason,
} from '../../shared/download-formats';
import { siteCalendarDate } from '../../shared/site-dates';
import { fundraisers, fundraiserTracks, jobs, transcodes } from '../../server/db/schema';
import { offlineLowMessages } from '../../server/features/fundraisers/album-formats';
import { chooseFfmpeg } from '../../server/infra/audio/ffmpeg';
import { donate } from '../fixtures/donations';
import { createFundraiser, uploadImage, uploadTrack } from '../fixtures/fundraisers';
import { startTestServer, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';
import { readZip } from '../fixtures/zips';

// Download formats and the Data saver (issue 27; DESIGN.md, contract details for wave 3,
// formats and offline quality): every format made by the real ffmpeg from real WAV and MP3
// uploads, read back with ffmpeg and music-metadata, through the real HTTP routes and job queue.

const ffmpeg = chooseFfmpeg(undefined).path;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-formats-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A tone made by ffmpeg itself: `codec` pcm_s16le or pcm_s24le makes a 16- or 24-bit WAV, libmp3lame an MP3. */
function tone(seconds: number, options: { frequency?: number; rate?: number; channels?: number; codec?: string }) {
  const { frequency = 440, rate = 44_100, channels = 2, codec = 'pcm_s16le' } = options;
  const format = codec === 'libmp3lame' ? 'mp3' : 'wav';
  const made = spawnSync(
    ffmpeg,
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', `sine=frequency=${frequency}:duration=${seconds}:sample_rate=${rate}`],
      ...['-ac', String(channels), '-c:a', codec, '-f', format, '-'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  expect(made.status, made.stderr?.toString()).toBe(0);
  return made.stdout;
}

/** The samples a file decodes to, as 32-bit integers: equal for a lossless copy of the same audio. */
function samplesOf(file: string): string {
  const decoded = spawnSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 's32le', '-'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(decoded.status, decoded.stderr?.toString()).toBe(0);
  return crypto.createHash('sha256').update(decoded.stdout).digest('hex');
}

/** ffmpeg's description of a file's audio stream ("48000 Hz, mono, s32 (24 bit)"). */
function audioStream(file: string): string {
  const probed = spawnSync(ffmpeg, ['-hide_banner', '-i', file], { encoding: 'utf8' });
  return /Stream #0:0.*?: Audio: (.*)/.exec(probed.stderr)?.[1] ?? probed.stderr;
}

/** How long a file plays, by decoding all of it (not trusting its header). */
function decodedSeconds(file: string): number {
  const decoded = spawnSync(
    ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', '48000', '-f', 's16le', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  expect(decoded.status, decoded.stderr?.toString()).toBe(0);
  return decoded.stdout.length / 2 / 48_000;
}

const server = useTestServer();
let owner: TestClient;
let fan: TestClient;
/** Two WAV tracks: 16-bit 44.1 kHz stereo (3 s) and 24-bit 48 kHz mono (2 s). */
let wavAlbum: Fundraiser;
let wavOriginals: Buffer[];
/** A WAV track and an MP3 one: no lossless formats. */
let mixedAlbum: Fundraiser;

async function albumOf(client: TestClient, tracks: { bytes: Buffer; name: string }[]) {
  const uploads = {
    cover: await uploadImage(client),
    preview: await uploadTrack(client, tone(1, { frequency: 660 }), 'preview.wav'),
    tracks: [] as string[],
  };
  for (const track of tracks) uploads.tracks.push(await uploadTrack(client, track.bytes, track.name));
  return createFundraiser(client, {
    uploads,
    publish: true,
    details: { name: `Album ${crypto.randomUUID().slice(0, 8)}` },
  });
}

beforeAll(async () => {
  owner = await verifiedUser(server, 'formats-owner@example.org');
  fan = await verifiedUser(server, 'formats-fan@example.org');
  wavOriginals = [
    tone(3, { frequency: 440 }),
    tone(2, { frequency: 550, rate: 48_000, channels: 1, codec: 'pcm_s24le' }),
  ];
  wavAlbum = await albumOf(owner, [
    { bytes: wavOriginals[0]!, name: 'one.wav' },
    { bytes: wavOriginals[1]!, name: 'two.wav' },
  ]);
  mixedAlbum = await albumOf(owner, [
    { bytes: tone(2, {}), name: 'one.wav' },
    { bytes: tone(2, { codec: 'libmp3lame' }), name: 'two.mp3' },
  ]);
  await server.jobs.drain();
  await donate(server, { fundraiserId: wavAlbum.id, email: 'formats-fan@example.org' });
  await donate(server, { fundraiserId: mixedAlbum.id, email: 'formats-fan@example.org' });
}, 120_000);

const prepare = async (client: TestClient, url: string, method: 'GET' | 'POST' = 'POST') => {
  const answer = await client.request(method, url);
  // DESIGN.md: a POST asks for the preparation, 202 whatever it finds; a GET only reads, 200.
  expect(answer.status, answer.text).toBe(method === 'POST' ? 202 : 200);
  return { status: answer.status, preparation: formatPreparationSchema.parse(answer.json) };
};

/** Downloads `url` to a file in the work folder. */
async function downloadTo(client: TestClient, url: string, name: string) {
  const response = await fetch(`${server.baseUrl}${url}`, { headers: { cookie: client.cookieHeader() } });
  expect(response.status, await response.clone().text()).toBe(200);
  const file = path.join(work, name);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return { file, headers: response.headers };
}

/** Prepares the album in `format` as the fan, runs the jobs and downloads the zip; answers its entries as files. */
async function albumIn(format: string) {
  const url = `/api/music-library/album/${wavAlbum.id}/formats/${format}`;
  const first = await prepare(fan, url);
  expect(first.preparation).toMatchObject({ format, totalTracks: 2 });
  await server.jobs.drain();
  const { preparation } = await prepare(fan, url, 'GET');
  expect(preparation).toMatchObject({ status: 'ready', readyTracks: 2, totalTracks: 2 });
  const { file, headers } = await downloadTo(fan, preparation.downloadUrl, `${format}.zip`);
  expect(headers.get('content-type')).toBe('application/zip');
  expect(headers.get('content-disposition')).toContain(encodeURIComponent(downloadFormats[format as 'flac'].label));
  const entries = await readZip(file);
  for (const entry of entries) expect(entry.actualCrc, entry.name).toBe(entry.declaredCrc);
  return entries.map((entry) => {
    const saved = path.join(work, `${format}-${entry.name}`);
    fs.writeFileSync(saved, entry.data!);
    return { name: entry.name, file: saved };
  });
}

describe('GET /api/fundraisers/{id}/formats', () => {
  it('lists every format with the album’s size, public before buying; lossless only from lossless originals', async () => {
    const guest = server.client();
    const wavFormats = albumFormatsSchema.parse((await guest.get(`/api/fundraisers/${wavAlbum.id}/formats`)).json);
    expect(wavFormats.formats.map((format) => format.id)).toEqual([...DOWNLOAD_FORMAT_IDS]);
    expect(wavFormats.formats.every((format) => format.available && format.approxBytes > 0)).toBe(true);
    const size = (id: string) => wavFormats.formats.find((format) => format.id === id)!.approxBytes;
    const originalBytes = wavOriginals.reduce((sum, bytes) => sum + bytes.length, 0);
    expect(size('original')).toBe(originalBytes);
    // Sizes follow the formats: WAV about the originals, FLAC smaller, MP3 320 smaller still, Opus smallest.
    expect(size('wav')).toBe(originalBytes);
    expect(size('flac')).toBeLessThan(size('wav'));
    expect(size('opus-128')).toBeLessThan(size('mp3-320'));
    expect(wavFormats.formats.find((format) => format.id === 'original')!.lossless).toBe(true);

    const mixed = albumFormatsSchema.parse((await guest.get(`/api/fundraisers/${mixedAlbum.id}/formats`)).json);
    for (const format of mixed.formats) {
      const lossless = ['flac', 'alac', 'wav'].includes(format.id);
      expect(format.available, format.id).toBe(!lossless);
      if (lossless) expect(format.reason).toBe(losslessUnavailableReason);
    }
    expect(mixed.formats.find((format) => format.id === 'original')!.lossless).toBe(false);
    // Asking for a lossless format of it anyway is refused with the same reason.
    const refused = await fan.post(`/api/music-library/album/${mixedAlbum.id}/formats/flac`);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OTHER', message: losslessUnavailableReason });
    expect((await fan.post(`/api/music-library/album/${wavAlbum.id}/formats/aiff`)).status).toBe(400);
    expect((await guest.get(`/api/fundraisers/999999/formats`)).status).toBe(404);
  });
  it('offers WAV but not FLAC or ALAC for a 32-bit original, and FLAC for a WAV track of an album with an MP3', async () => {
    const deep = await albumOf(owner, [{ bytes: tone(1, { codec: 'pcm_s32le' }), name: 'deep.wav' }]);
    await server.jobs.drain();
    const { formats } = albumFormatsSchema.parse((await fan.get(`/api/fundraisers/${deep.id}/formats`)).json);
    const offered = Object.fromEntries(formats.map((format) => [format.id, format]));
    expect(offered.wav!.available).toBe(true);
    for (const id of ['flac', 'alac'] as const)
      expect(offered[id]).toMatchObject({ available: false, reason: deepWavReason });

    // The mixed album's first track is a WAV: on its own it is lossless.
    const wavTrack = mixedAlbum.tracksList[0]!.id;
    expect((await fan.post(`/api/tracks/${wavTrack}/formats/flac`)).status).toBe(202);
    expect((await fan.post(`/api/tracks/${mixedAlbum.tracksList[1]!.id}/formats/flac`)).json).toMatchObject({
      message: losslessUnavailableReason,
    });
  });

  it('offers a legacy album (one uploaded zip) only as it was uploaded', async () => {
    const legacy = await createFundraiser(owner, { publish: true });
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, legacy.id)).run();
    const { formats } = albumFormatsSchema.parse((await fan.get(`/api/fundraisers/${legacy.id}/formats`)).json);
    expect(formats.filter((format) => format.available).map((format) => format.id)).toEqual(['original']);
    expect(formats.find((format) => format.id === 'flac')!.reason).toBe(legacyAlbumReason);
    // Without its zip yet there is nothing to download: said at once, not after a failed download.
    const noZip = await owner.post(`/api/music-library/album/${legacy.id}/formats/original`);
    expect(noZip.status).toBe(404);
    expect(noZip.json).toMatchObject({ message: 'This fundraiser has no album zip yet.' });
    server.db
      .update(fundraisers)
      .set({ tracksZipUploadId: legacy.previewTrackFile! })
      .where(eq(fundraisers.id, legacy.id))
      .run();
    const { preparation } = await prepare(owner, `/api/music-library/album/${legacy.id}/formats/original`);
    expect(preparation).toMatchObject({ status: 'ready', totalTracks: 0 });
    expect((await owner.post(`/api/music-library/album/${legacy.id}/formats/mp3-320`)).status).toBe(400);
  });
});

describe('preparing and downloading a format', () => {
  it('makes FLAC, ALAC and WAV that decode to exactly the original samples, tagged, with the cover', async () => {
    // The year tag is the year the album was published where the site is: not this runner's year
    // now (in UTC, New Year's morning is still last year in Los Angeles).
    const { publishedAt } = server.db.select().from(fundraisers).where(eq(fundraisers.id, wavAlbum.id)).get()!;
    const publishedYear = Number(siteCalendarDate(publishedAt!, server.deps.config.timeZone).slice(0, 4));
    for (const format of ['flac', 'alac', 'wav'] as const) {
      const files = await albumIn(format);
      const extension = downloadFormats[format].extension;
      expect(files.map((entry) => entry.name)).toEqual([
        `01 - Track 1.${extension}`,
        `02 - Track 2.${extension}`,
        'cover.jpg',
      ]);
      for (const [index, original] of wavOriginals.entries()) {
        const originalFile = path.join(work, `original-${index}.wav`);
        fs.writeFileSync(originalFile, original);
        expect(samplesOf(files[index]!.file), `${format} track ${index + 1}`).toBe(samplesOf(originalFile));
        // Never upsampled nor widened: the 24-bit 48 kHz mono original stays so (ffmpeg's reading:
        // music-metadata takes an ALAC file's QuickTime defaults for its own).
        expect(audioStream(files[index]!.file)).toMatch(
          index === 0 ? /44100 Hz, stereo, s16/ : /48000 Hz, mono, s32p? \(24 bit\)/,
        );
        const metadata = await parseFile(files[index]!.file);
        expect(metadata.common).toMatchObject({
          title: `Track ${index + 1}`,
          album: wavAlbum.name,
          track: { no: index + 1, of: 2 },
          year: publishedYear,
        });
        expect(metadata.common.artist).toBeTruthy();
        expect(JSON.stringify(metadata.common.comment)).toContain(wavAlbum.charityEin.slice(-4));
        // WAV has nowhere players read a cover from; the zip's cover.jpg is its picture.
        expect(metadata.common.picture?.length ?? 0, `${format} cover`).toBe(format === 'wav' ? 0 : 1);
      }
    }
  }, 120_000);

  it('makes MP3 320, MP3 V0, AAC 256 and Opus 128 of the right length, tagged, with the cover', async () => {
    const expected = {
      'mp3-320': 'MPEG 1 Layer 3',
      'mp3-v0': 'MPEG 1 Layer 3',
      'aac-256': 'MPEG-4/AAC',
      'opus-128': 'Opus',
    };
    for (const [format, codec] of Object.entries(expected)) {
      const files = await albumIn(format);
      expect(files).toHaveLength(3);
      for (const [index, seconds] of [3, 2].entries()) {
        const file = files[index]!.file;
        // Encoders pad a few milliseconds at the ends; the music is all there.
        expect(Math.abs(decodedSeconds(file) - seconds), `${format} track ${index + 1}`).toBeLessThanOrEqual(0.1);
        const metadata = await parseFile(file);
        expect(metadata.format.codec, format).toContain(codec);
        expect(metadata.common).toMatchObject({
          title: `Track ${index + 1}`,
          album: wavAlbum.name,
          track: { no: index + 1, of: 2 },
        });
        expect(metadata.common.picture?.length, `${format} cover`).toBe(1);
      }
      if (format === 'mp3-320') expect((await parseFile(files[0]!.file)).format.bitrate).toBe(320_000);
    }
  }, 120_000);

  it('starts one preparation however many ask at once, answers 409 to a download until it is ready', async () => {
    const jobsBefore = server.db.select().from(jobs).where(eq(jobs.kind, 'transcode-track')).all().length;
    const url = `/api/music-library/album/${mixedAlbum.id}/formats/opus-128`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => prepare(fan, url)));
    for (const { status, preparation } of answers) {
      expect(status).toBe(202);
      expect(preparation).toMatchObject({ status: 'preparing', readyTracks: 0, totalTracks: 2 });
    }
    const jobsAfter = server.db.select().from(jobs).where(eq(jobs.kind, 'transcode-track')).all().length;
    expect(jobsAfter - jobsBefore).toBe(2);
    const early = await fan.get(answers[0]!.preparation.downloadUrl);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'OTHER' });
    await server.jobs.drain();
    const done = await prepare(fan, url);
    expect(done).toMatchObject({ status: 202, preparation: { status: 'ready', readyTracks: 2 } });
    // Asked again once ready: no more work.
    expect(server.db.select().from(jobs).where(eq(jobs.kind, 'transcode-track')).all().length).toBe(jobsAfter);
  });

  it('writes names with control characters and ffmetadata’s own characters into the tags without losing the others', async () => {
    const trackId = wavAlbum.tracksList[0]!.id;
    const name = 'Line\rbreak\u0000 = ; # \\ [STREAM] 🎵';
    server.db.update(fundraiserTracks).set({ name }).where(eq(fundraiserTracks.id, trackId)).run();
    try {
      const { preparation } = await prepare(fan, `/api/tracks/${trackId}/formats/opus-128`);
      await server.jobs.drain();
      expect((await prepare(fan, `/api/tracks/${trackId}/formats/opus-128`, 'GET')).preparation.status).toBe('ready');
      const { file } = await downloadTo(fan, preparation.downloadUrl, 'odd.opus');
      const { common } = await parseFile(file);
      expect(common.title).toBe('Line break  = ; # \\ [STREAM] 🎵');
      expect(common).toMatchObject({ album: wavAlbum.name, track: { no: 1, of: 2 } });
      expect(common.picture).toHaveLength(1);
    } finally {
      server.db.update(fundraiserTracks).set({ name: 'Track 1' }).where(eq(fundraiserTracks.id, trackId)).run();
    }
  }, 60_000);

  it('downloads one track in any format, and the original as uploaded', async () => {
    const trackId = wavAlbum.tracksList[1]!.id;
    const { preparation } = await prepare(fan, `/api/tracks/${trackId}/formats/mp3-320`);
    expect(preparation).toMatchObject({
      totalTracks: 1,
      downloadUrl: `/api/tracks/${trackId}/download?format=mp3-320`,
    });
    await server.jobs.drain();
    const { file, headers } = await downloadTo(fan, preparation.downloadUrl, 'single.mp3');
    expect(headers.get('content-type')).toBe('audio/mpeg');
    expect(headers.get('content-disposition')).toContain(encodeURIComponent('02 - Track 2.mp3'));
    expect((await parseFile(file)).common).toMatchObject({ title: 'Track 2', track: { no: 2, of: 2 } });
    const original = await downloadTo(fan, `/api/tracks/${trackId}/download`, 'single-original.wav');
    expect(fs.readFileSync(original.file).equals(wavOriginals[1]!)).toBe(true);
    // Someone who did not buy the album gets nothing.
    const stranger = await verifiedUser(server, 'formats-stranger@example.org');
    expect((await stranger.post(`/api/tracks/${trackId}/formats/mp3-320`)).status).toBe(403);
    expect((await stranger.get(`/api/tracks/${trackId}/download?format=mp3-320`)).status).toBe(403);
    expect((await stranger.post(`/api/music-library/album/${wavAlbum.id}/formats/flac`)).status).toBe(404);
    expect((await server.client().post(`/api/music-library/album/${wavAlbum.id}/formats/flac`)).status).toBe(401);
  });

  it('says which track failed and makes it on Try again', async () => {
    const url = `/api/music-library/album/${wavAlbum.id}/formats/mp3-v0`;
    // A preparation of MP3 V0 exists from an earlier test: start from a fresh cache for this album.
    server.db.delete(transcodes).where(eq(transcodes.format, 'mp3-v0')).run();
    const original = server.media.trackFile(wavAlbum.tracksList[1]!.uploadId!, 'wav');
    const kept = fs.readFileSync(original);
    fs.writeFileSync(original, Buffer.from('not audio at all'));
    try {
      await prepare(fan, url);
      await server.jobs.drain({ skipBackoff: true });
      const { preparation } = await prepare(fan, url, 'GET');
      expect(preparation).toMatchObject({
        status: 'failed',
        readyTracks: 1,
        failed: { trackId: wavAlbum.tracksList[1]!.id, trackName: 'Track 2' },
      });
      expect(preparation.failed!.message).toMatch(/could not be prepared/);
    } finally {
      fs.writeFileSync(original, kept);
    }
    const retried = await prepare(fan, url);
    expect(retried).toMatchObject({ status: 202, preparation: { status: 'preparing', readyTracks: 1 } });
    await server.jobs.drain();
    expect((await prepare(fan, url, 'GET')).preparation.status).toBe('ready');
  }, 60_000);

  it('never serves a stale file after the album changes, and gives guests with a receipt link the same choice', async () => {
    await prepare(fan, `/api/music-library/album/${wavAlbum.id}/formats/mp3-320`);
    await server.jobs.drain();
    // The owner renames the second track: its tags change, so the prepared file is not it any more.
    // An admin renames the second track (only they may change a published album): its tags
    // change, so the prepared file is not it any more.
    server.db
      .update(fundraiserTracks)
      .set({ name: 'Renamed' })
      .where(eq(fundraiserTracks.id, wavAlbum.tracksList[1]!.id))
      .run();
    const after = await prepare(fan, `/api/music-library/album/${wavAlbum.id}/formats/mp3-320`, 'GET');
    expect(after.preparation).toMatchObject({ status: 'preparing', readyTracks: 1 });
    expect((await fan.get(after.preparation.downloadUrl)).status).toBe(409);
    await server.jobs.drain();
    const entries = await albumIn('mp3-320');
    expect(entries.map((entry) => entry.name)).toContain('02 - Renamed.mp3');
    expect((await parseFile(entries[1]!.file)).common.title).toBe('Renamed');

    // A guest's receipt link: the same formats, prepared and downloaded without an account.
    await donate(server, { fundraiserId: wavAlbum.id, email: 'formats-guest@example.org' });
    await server.jobs.drain();
    const receipt = server.outbox.messages('formats-guest@example.org')[0]!.replace(/=\r?\n/g, '');
    const token = /\/purchases\/([A-Za-z0-9_-]{43})/.exec(receipt)![1]!;
    const guest = server.client();
    const { preparation } = await prepare(guest, `/api/purchases/${token}/formats/mp3-320`);
    expect(preparation).toMatchObject({
      status: 'ready',
      downloadUrl: `/api/purchases/${token}/download?format=mp3-320`,
    });
    const zip = await downloadTo(guest, preparation.downloadUrl, 'guest.zip');
    expect((await readZip(zip.file)).map((entry) => entry.name)).toEqual([
      '01 - Track 1.mp3',
      '02 - Renamed.mp3',
      'cover.jpg',
    ]);
    expect((await guest.post(`/api/purchases/${'x'.repeat(43)}/formats/mp3-320`)).status).toBe(404);
  }, 60_000);
});

describe('Data saver (GET /api/tracks/{id}/stream?quality=low)', () => {
  it('makes AAC 96 kbps on the first request, answers ranges, and asks for the album’s other tracks', async () => {
    const [first, second] = wavAlbum.tracksList;
    const url = `/api/tracks/${first!.id}/stream?quality=low`;
    // The first request waits while the job queue makes the file.
    const asked = fetch(`${server.baseUrl}${url}`, { headers: { cookie: fan.cookieHeader() } });
    await expect
      .poll(() => server.db.select().from(transcodes).where(eq(transcodes.format, 'offline-low')).all().length)
      .toBe(2);
    await server.jobs.drain();
    const whole = await asked;
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mp4');
    expect(whole.headers.get('cache-control')).toContain('private');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const file = path.join(work, 'low.m4a');
    fs.writeFileSync(file, bytes);
    const metadata = await parseFile(file);
    expect(metadata.format.codec).toContain('AAC');
    expect(Math.abs(decodedSeconds(file) - 3)).toBeLessThanOrEqual(0.1);
    // About 96 kbps: 3 s are about 36 KB, far under the 192 kbps stream's 72 KB.
    expect(bytes.length).toBeLessThan(50_000);

    const ranged = await fetch(`${server.baseUrl}${url}`, {
      headers: { cookie: fan.cookieHeader(), range: 'bytes=100-199' },
    });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    // The rest of the album was asked for in the same breath, ahead of other work.
    const others = server.db.select().from(transcodes).where(eq(transcodes.format, 'offline-low')).all();
    expect(others.map((row) => row.trackId).sort()).toEqual([first!.id, second!.id].sort());

    expect((await server.client().get(url)).status).toBe(401);
    const stranger = await verifiedUser(server, 'low-stranger@example.org');
    expect((await stranger.get(url)).status).toBe(403);
    expect((await fan.get(`/api/tracks/${first!.id}/stream?quality=best`)).status).toBe(400);

    // A track whose file cannot be made fails the save at once (409), tried once per request.
    const secondUrl = `/api/tracks/${second!.id}/stream?quality=low`;
    server.db.delete(transcodes).where(eq(transcodes.trackId, second!.id)).run();
    const original = server.media.trackFile(second!.uploadId!, 'wav');
    const kept = fs.readFileSync(original);
    fs.writeFileSync(original, Buffer.from('not audio at all'));
    try {
      const failing = fan.get(secondUrl);
      await expect
        .poll(() => server.db.select().from(transcodes).where(eq(transcodes.trackId, second!.id)).all().length)
        .toBe(1);
      await server.jobs.drain();
      const answer = await failing;
      expect(answer.status).toBe(409);
      expect(answer.json).toMatchObject({ code: 'OTHER', message: offlineLowMessages.failed });
    } finally {
      fs.writeFileSync(original, kept);
    }
    const retried = fan.get(secondUrl);
    await expect
      .poll(() => server.db.select().from(jobs).where(eq(jobs.status, 'queued')).all().length)
      .toBeGreaterThan(0);
    await server.jobs.drain();
    expect((await retried).status).toBe(200);
  }, 60_000);
});

describe('the cache', () => {
  let small: TestServer;
  afterAll(() => small?.close());

  it('evicts the least recently used files to stay under TRANSCODE_CACHE_MB', async () => {
    // 0.4 MB: room for the WAV album (two 1 s tracks, 176 KB each) and a little more, not every format.
    small = await startTestServer({ TRANSCODE_CACHE_MB: '0.4' });
    const artist = await verifiedUser(small, 'cache-owner@example.org');
    const uploads = {
      cover: await uploadImage(artist),
      preview: await uploadTrack(artist, tone(1, {}), 'preview.wav'),
      tracks: [
        await uploadTrack(artist, tone(1, {}), 'a.wav'),
        await uploadTrack(artist, tone(1, { frequency: 300 }), 'b.wav'),
      ],
    };
    const album = await createFundraiser(artist, { uploads, publish: true });
    await small.jobs.drain();
    const limit = 0.4 * 1024 * 1024;
    const cached = () => small.db.select().from(transcodes).where(eq(transcodes.status, 'ready')).all();
    const onDisk = () => fs.readdirSync(small.media.dirs.transcodes);
    let firstMade: number[] | undefined;
    for (const format of ['wav', 'flac', 'mp3-320', 'alac', 'aac-256', 'wav']) {
      // An hour passes between fans: nothing made before was used since (files used in the last
      // half hour are never evicted, which the album being made relies on).
      small.db
        .update(transcodes)
        .set({ lastUsedAt: sql`${transcodes.lastUsedAt} - 3600000` })
        .run();
      await prepare(artist, `/api/music-library/album/${album.id}/formats/${format}`);
      await small.jobs.drain();
      const rows = cached();
      firstMade ??= rows.map((row) => row.id);
      expect(
        rows.reduce((sum, row) => sum + row.bytes!, 0),
        format,
      ).toBeLessThanOrEqual(limit);
      // The files are exactly the rows': nothing evicted is left on disk.
      expect(onDisk().sort()).toEqual(rows.map((row) => row.file).sort());
      // The format just made is all there, so its download works.
      const status = await prepare(artist, `/api/music-library/album/${album.id}/formats/${format}`, 'GET');
      expect(status.preparation.status, format).toBe('ready');
    }
    // The least recently used went first: a first WAV file was evicted and made anew at the end.
    const left = new Set(cached().map((row) => row.id));
    expect(firstMade!.filter((id) => left.has(id)).length).toBeLessThan(firstMade!.length);
    expect(cached().filter((row) => row.format === 'wav')).toHaveLength(2);
  }, 60_000);

  it('still finishes an album bigger than the cache, and comes back under the limit once it is not used', async () => {
    const artist = await verifiedUser(small, 'cache-big@example.org');
    const uploads = {
      cover: await uploadImage(artist),
      preview: await uploadTrack(artist, tone(1, {}), 'preview.wav'),
      // Three 1 s WAVs: 529 KB, over the 0.4 MB cache on their own.
      tracks: await Promise.all(
        [220, 330, 440].map((frequency) => uploadTrack(artist, tone(1, { frequency }), 'big.wav')),
      ),
    };
    const album = await createFundraiser(artist, { uploads, publish: true });
    await small.jobs.drain();
    const url = `/api/music-library/album/${album.id}/formats/wav`;
    await prepare(artist, url);
    await small.jobs.drain();
    expect((await prepare(artist, url, 'GET')).preparation).toMatchObject({ status: 'ready', readyTracks: 3 });
    const total = () =>
      small.db
        .select()
        .from(transcodes)
        .where(eq(transcodes.status, 'ready'))
        .all()
        .reduce((sum, row) => sum + row.bytes!, 0);
    expect(total()).toBeGreaterThan(0.4 * 1024 * 1024);
    // An hour on, another format is made: the big album's files, unused since, make room.
    small.db
      .update(transcodes)
      .set({ lastUsedAt: sql`${transcodes.lastUsedAt} - 3600000` })
      .run();
    await prepare(artist, `/api/music-library/album/${album.id}/formats/opus-128`);
    await small.jobs.drain();
    expect(total()).toBeLessThanOrEqual(0.4 * 1024 * 1024);
  }, 60_000);
});
