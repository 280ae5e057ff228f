import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fundraiser, fundraiserSchema } from '../../shared/answers/fundraisers';
import { fundraisers, uploads } from '../../server/db/schema';
import { wav } from '../fixtures/audio';
import { uploadTrack } from '../fixtures/fundraisers';
import { createFundraiser, details } from '../fixtures/fundraisers';
import { craftedZip, readZip, unzipTest } from '../fixtures/zips';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { donate } from '../fixtures/donations';
import { useTestServer } from '../fixtures/use-test-server';
import { openDescriptorsOf } from '../fixtures/descriptors';

// GET /api/fundraisers/{id}/download (issue 5): the album zip is built while it is sent, or the
// legacy zip is sent as stored. Whatever the client does (goes away, asks HEAD, resumes) and
// whatever is missing on disk, no file stays open and the server keeps answering.

const server = useTestServer();
let owner: TestClient;
/**
 * Two tracks; the first original is made 32 MB of random bytes on disk, far more than the socket
 * buffers hold, and no two of its chunks alike.
 */
let album: Fundraiser;
/** A legacy (v1) fundraiser whose stored zip is made 32 MB on disk. */
let legacy: Fundraiser;
let bigTrack: string;
let smallTrack: string;
let legacyZip: string;

const BIG = 32 * 1024 * 1024;
const MISSING = "Some of this album's files are missing. Please contact us.";

const cookie = (client: TestClient) => client.cookieHeader();
const downloadUrl = (fundraiser: Fundraiser) => `${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`;

async function download(
  fundraiser: Fundraiser,
  init: RequestInit & { headers?: Record<string, string> } = {},
  client: TestClient = owner,
) {
  const response = await fetch(downloadUrl(fundraiser), {
    ...init,
    headers: { cookie: cookie(client), ...init.headers },
  });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Starts a download and stops reading at its first bytes, so the server is stuck mid-file (the
 * socket buffers hold far less than 32 MB); once `file` is open, drops the connection.
 */
function cancelledDownload(fundraiser: Fundraiser, file: string) {
  return new Promise<void>((resolve, reject) => {
    const request = http.get(downloadUrl(fundraiser), { headers: { cookie: cookie(owner) } }, (response) => {
      expect(response.statusCode).toBe(200);
      response.once('data', () => {
        response.pause();
        vi.waitFor(() => expect(openDescriptorsOf(file)).toBe(1))
          .then(() => {
            request.destroy();
            resolve();
          })
          .catch(reject);
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

beforeAll(async () => {
  owner = await verifiedUser(server, 'album-download-owner@example.org');
  const made = await createFundraiser(owner, { tracks: 2 });
  album = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${made.id}`)).json);
  bigTrack = server.media.trackFile(album.tracksList[0]!.uploadId!, 'wav');
  smallTrack = server.media.trackFile(album.tracksList[1]!.uploadId!, 'wav');
  fs.writeFileSync(bigTrack, crypto.randomBytes(BIG));

  const old = await createFundraiser(owner);
  server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, old.id)).run();
  const form = new FormData();
  for (const [name, value] of Object.entries({
    ...details,
    charityEin: old.charityEin,
    donationMinimumCents: '500',
    fundraisingGoalCents: '100000',
    albumCover: old.albumCover ?? '',
    previewTrackName: '',
    previewTrackFile: old.previewTrackFile ?? '',
    trackList: JSON.stringify(['Old song']),
  }))
    form.append(name, value);
  const zip = craftedZip([{ name: '01 Old song.wav', data: wav() }]);
  form.append('albumZip', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'album.zip');
  expect((await owner.patch(`/api/fundraisers/${old.id}/updatev1`, { multipart: form })).status).toBe(200);
  legacy = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${old.id}`)).json);
  const row = server.db.select().from(fundraisers).where(eq(fundraisers.id, old.id)).get()!;
  legacyZip = server.media.zipFile(row.tracksZipUploadId!);
  // Any bytes will do: the stored zip is sent as it is.
  fs.writeFileSync(legacyZip, Buffer.alloc(BIG, 2));
}, 60_000);

describe('GET /api/fundraisers/{id}/download', () => {
  it('closes the track being sent when the client goes away mid-zip, and logs nothing', async () => {
    const errors = vi.spyOn(server.logger, 'error');
    const consoleError = vi.spyOn(console, 'error');
    const consoleInfo = vi.spyOn(console, 'info');
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        await cancelledDownload(album, bigTrack);
      }
      await vi.waitFor(() => expect(openDescriptorsOf(bigTrack)).toBe(0));
      expect(openDescriptorsOf(smallTrack)).toBe(0);
      expect(errors).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      expect(consoleInfo).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      consoleError.mockRestore();
      consoleInfo.mockRestore();
    }
    // Nothing was left half-done: a whole download still works.
    const whole = await download(album);
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBeGreaterThan(BIG);
    expect(whole.body.length).toBe(Number(whole.headers.get('content-length')));
  });

  it('closes the legacy zip when the client goes away', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      await cancelledDownload(legacy, legacyZip);
    }
    await vi.waitFor(() => expect(openDescriptorsOf(legacyZip)).toBe(0));
  });

  it('answers HEAD with the headers of GET and opens no file', async () => {
    for (const [fundraiser, files] of [
      [album, [bigTrack, smallTrack]],
      [legacy, [legacyZip]],
    ] as const) {
      const get = await download(fundraiser);
      for (let attempt = 0; attempt < 3; attempt++) {
        const head = await download(fundraiser, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        for (const name of ['content-type', 'content-disposition', 'cache-control', 'content-length']) {
          expect(head.headers.get(name), name).toBe(get.headers.get(name));
        }
        expect(Number(head.headers.get('content-length'))).toBe(get.body.length);
      }
      for (const file of files) await expect.poll(() => openDescriptorsOf(file), { message: file }).toBe(0);
    }
  });

  it('resumes a legacy zip from where it stopped, as an attachment nobody caches', async () => {
    const stored = fs.readFileSync(legacyZip);
    const first = await download(legacy);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent(`${legacy.name}.zip`)}`,
    );
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();

    const rest = await download(legacy, { headers: { range: 'bytes=1000-', 'if-range': etag! } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 1000-${BIG - 1}/${BIG}`);
    expect(rest.body.equals(stored.subarray(1000))).toBe(true);
    expect(rest.headers.get('content-disposition')).toBe(first.headers.get('content-disposition'));
    await vi.waitFor(() => expect(openDescriptorsOf(legacyZip)).toBe(0));
  });

  it('answers 404, not a file to save, when the legacy zip is missing', async () => {
    const saved = fs.readFileSync(legacyZip);
    const errors = vi.spyOn(server.logger, 'error');
    fs.rmSync(legacyZip);
    try {
      const response = await fetch(downloadUrl(legacy), { headers: { cookie: cookie(owner) } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-disposition')).toBeNull();
      expect(await response.json()).toEqual({ code: 'OTHER', message: 'The album zip is no longer available.' });
      expect(errors).toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      fs.writeFileSync(legacyZip, saved);
    }
  });

  it('answers 404 when an original is missing, and keeps running', async () => {
    const saved = fs.readFileSync(smallTrack);
    const errors = vi.spyOn(server.logger, 'error');
    fs.rmSync(smallTrack);
    try {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(downloadUrl(album), { method, headers: { cookie: cookie(owner) } });
        expect(response.status, method).toBe(404);
        expect(response.headers.get('content-disposition')).toBeNull();
        if (method === 'GET') expect(await response.json()).toEqual({ code: 'OTHER', message: MISSING });
      }
      expect(errors).toHaveBeenCalled();
      expect((await owner.get(`/api/fundraisers/${album.id}`)).status).toBe(200);
      await expect.poll(() => openDescriptorsOf(bigTrack)).toBe(0);
    } finally {
      errors.mockRestore();
      fs.writeFileSync(smallTrack, saved);
    }
  });

  it('ends the response, not the server, when a file goes missing mid-zip', async () => {
    const saved = fs.readFileSync(smallTrack);
    const errors = vi.spyOn(server.logger, 'error');
    // @hono/node-server prints a response body that failed; the test expects that failure.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const outcome = await new Promise<{ received: number; expected: number; complete: boolean }>(
        (resolve, reject) => {
          const request = http.get(downloadUrl(album), { headers: { cookie: cookie(owner) } }, (response) => {
            expect(response.statusCode).toBe(200);
            const expected = Number(response.headers['content-length']);
            let received = 0;
            // The big first track is being sent: the second is only opened when its turn comes.
            response.once('data', () => fs.rmSync(smallTrack));
            response.on('data', (chunk: Buffer) => (received += chunk.length));
            response.on('end', () => resolve({ received, expected, complete: response.complete }));
            response.on('error', () => resolve({ received, expected, complete: false }));
          });
          request.on('error', reject);
        },
      );
      expect(outcome.complete).toBe(false);
      expect(outcome.received).toBeLessThan(outcome.expected);
      await vi.waitFor(() => expect(errors).toHaveBeenCalled());
      expect((await owner.get(`/api/fundraisers/${album.id}`)).status).toBe(200);
      await vi.waitFor(() => expect(openDescriptorsOf(bigTrack)).toBe(0));
    } finally {
      errors.mockRestore();
      consoleError.mockRestore();
      fs.writeFileSync(smallTrack, saved);
    }
  });
});

// Issue 13: the zip is written with each original's CRC-32 as recorded at upload, so nothing is
// checksummed while it is sent. It must still be a zip whose every checksum is right.
describe('the checksums in the album zip', () => {
  const uploadOf = (file: string) =>
    server.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, path.basename(file, '.wav')))
      .get()!;

  /** The album downloaded to a file, read back by yauzl and tested by unzip. */
  async function downloadedZip() {
    const got = await download(album);
    expect(got.status).toBe(200);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-album-')), 'album.zip');
    fs.writeFileSync(file, got.body);
    const entries = await readZip(file);
    const tested = unzipTest(file);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    return { entries, tested };
  }

  it('records the CRC-32 of an original as it is uploaded', async () => {
    const bytes = wav({ seconds: 1, frequency: 330 });
    const id = await uploadTrack(owner, bytes, 'checked.wav');
    const row = server.db.select().from(uploads).where(eq(uploads.id, id)).get()!;
    expect(row.crc32).toBe(zlib.crc32(bytes));
    expect(row.bytes).toBe(bytes.length);
  });

  it('sends every original with its right checksum, as yauzl and unzip read it', async () => {
    const { entries, tested } = await downloadedZip();
    expect(entries.map((entry) => entry.name)).toEqual(
      album.tracksList.map((_, i) => expect.stringMatching(new RegExp(`^0${i + 1} - `))),
    );
    for (const [index, file] of [bigTrack, smallTrack].entries()) {
      const bytes = fs.readFileSync(file);
      expect(entries[index]!.size).toBe(bytes.length);
      expect(entries[index]!.declaredCrc).toBe(zlib.crc32(bytes));
      expect(entries[index]!.actualCrc).toBe(entries[index]!.declaredCrc);
    }
    if (tested) expect(tested.ok, tested.output).toBe(true);
  });

  it('sends the same bytes to a reader that takes them slowly', async () => {
    // The server reads into the same two buffers again and again, each once the socket has taken
    // what was written from it: a slow reader keeps the socket full, so a buffer read into too
    // soon would put later bytes where earlier ones belong.
    const slow = await new Promise<Buffer>((resolve, reject) => {
      const request = http.get(downloadUrl(album), { headers: { cookie: cookie(owner) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          response.pause();
          setTimeout(() => response.resume(), 1);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-album-')), 'album.zip');
    try {
      fs.writeFileSync(file, slow);
      const entries = await readZip(file);
      for (const [index, track] of [bigTrack, smallTrack].entries()) {
        expect(entries[index]!.data!.equals(fs.readFileSync(track)), track).toBe(true);
        expect(entries[index]!.actualCrc).toBe(entries[index]!.declaredCrc);
      }
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('checksums an original recorded without one once, on its first download, and records it', async () => {
    server.db
      .update(uploads)
      .set({ crc32: null })
      .where(eq(uploads.id, uploadOf(smallTrack).id))
      .run();
    const info = vi.spyOn(server.logger, 'info');
    try {
      const first = await downloadedZip();
      expect(first.entries[1]!.actualCrc).toBe(first.entries[1]!.declaredCrc);
      if (first.tested) expect(first.tested.ok, first.tested.output).toBe(true);
      expect(uploadOf(smallTrack).crc32).toBe(zlib.crc32(fs.readFileSync(smallTrack)));
      const recorded = () => info.mock.calls.filter(([, message]) => String(message).includes('checksum')).length;
      expect(recorded()).toBe(1);
      await downloadedZip();
      expect(recorded()).toBe(1);
    } finally {
      info.mockRestore();
    }
  });
});

describe('the download of a deleted fundraiser', () => {
  it('stays the same zip for its buyer and admins, and is 404 to its owner and others', async () => {
    const buyer = await verifiedUser(server, 'album-download-buyer@example.org');
    const admin = await adminClient(server, 'album-download-admin@example.org');
    const stranger = await verifiedUser(server, 'album-download-stranger@example.org');
    const sold = await createFundraiser(owner, { tracks: 2, publish: true });
    await donate(server, { fundraiserId: sold.id, email: 'album-download-buyer@example.org' });
    const before = await download(sold);
    expect(before.status).toBe(200);

    expect((await owner.delete(`/api/fundraisers/${sold.id}`)).status).toBe(200);
    for (const [who, client] of [
      ['buyer', buyer],
      ['admin', admin],
    ] as const) {
      const after = await download(sold, {}, client);
      expect(after.status, who).toBe(200);
      expect(after.headers.get('content-disposition'), who).toBe(before.headers.get('content-disposition'));
      expect(after.body.equals(before.body), who).toBe(true);
      const head = await download(sold, { method: 'HEAD' }, client);
      expect(head.status, who).toBe(200);
      expect(head.headers.get('content-length'), who).toBe(String(before.body.length));
    }
    for (const [who, client] of [
      ['owner', owner],
      ['stranger', stranger],
    ] as const) {
      const refused = await download(sold, {}, client);
      expect(refused.status, who).toBe(404);
      expect(refused.headers.get('content-disposition'), who).toBeNull();
    }
  });
});
