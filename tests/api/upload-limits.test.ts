import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploadMessages } from '../../shared/schemas/uploads';
import { uploads, users } from '../../server/db/schema';
import { cleanupUnusedUploads, PENDING_UPLOAD_QUOTA_BYTES } from '../../server/features/uploads/service';
import { newUploadId } from '../../server/infra/storage/media';
import { wav } from '../fixtures/audio';
import { imageForm, png } from '../fixtures/images';
import { rawRequest, registerUser, startTestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Uploads cannot fill the disk (issue 9: one new account stored 596 MB in a second): each account
// may hold only so much that nothing uses yet, uploads stop while the disk is low, and unused ones
// go after an hour.

const server = useTestServer();
const MB = 1024 * 1024;

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

const userId = (email: string) => server.db.select().from(users).where(eq(users.email, email)).get()!.id;

/** Rows standing for files this user uploaded and has not used: the quota counts their bytes. */
function pretendPending(email: string, bytes: number) {
  const id = newUploadId();
  server.db
    .insert(uploads)
    .values({ id, userId: userId(email), kind: 'track', format: 'wav', originalName: 'x.wav', bytes })
    .run();
  return id;
}

const sendImage = async (client: ReturnType<typeof server.client>) =>
  client.post('/api/uploads/image', { multipart: imageForm(await png(), 'cover.png', 'image/png') });

type Answer = { status: number; json: unknown };

/**
 * A track upload sent as far as its first bytes and then held, so that several are in flight at
 * once: `finish` sends the rest, `abort` drops the connection. `declaredFileBytes` lets the
 * Content-Length announce a file bigger than the bytes at hand (such an upload is never finished).
 */
function heldTrackUpload(baseUrl: string, cookie: string, file: Buffer, declaredFileBytes = file.length) {
  const boundary = 'held-upload';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="trackFile"; filename="held.wav"\r\n` +
      'content-type: audio/wav\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const request = http.request(`${baseUrl}/api/uploads/track`, {
    method: 'POST',
    agent: false,
    headers: {
      cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + declaredFileBytes + tail.length),
    },
  });
  const upload = { answer: undefined as Answer | undefined, answered: undefined as unknown as Promise<Answer> };
  upload.answered = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        upload.answer = { status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined };
        resolve(upload.answer);
      });
    });
    // A refused upload's connection may close under the bytes still held (the answer has come),
    // and a dropped one's closes by design.
    request.on('error', (error) => (upload.answer || request.destroyed ? undefined : reject(error)));
  });
  request.write(Buffer.concat([head, file.subarray(0, 16)]));
  return Object.assign(upload, {
    finish: () => request.end(Buffer.concat([file.subarray(16), tail])),
    abort: () => request.destroy(),
  });
}

const statuses = (held: { answer: Answer | undefined }[]) => held.map((upload) => upload.answer?.status);

describe('the pending uploads quota', () => {
  it('lets an unverified account hold 200 MB of unused uploads, then says to verify', async () => {
    const email = uniqueEmail('unverified');
    const client = server.client();
    await registerUser(client, email);
    expect((await sendImage(client)).status).toBe(201);
    pretendPending(email, PENDING_UPLOAD_QUOTA_BYTES.unverified);
    const refused = await sendImage(client);
    expect(refused.status).toBe(413);
    expect(refused.json).toEqual({ code: 'OTHER', message: uploadMessages.quotaUnverified });
    expect(fs.readdirSync(server.media.dirs.tmp)).toEqual([]);
  });

  it("refuses a verified account's upload that would pass 2 GB of unused files, before reading it", async () => {
    const email = uniqueEmail('verified');
    const client = await verifiedUser(server, email);
    pretendPending(email, PENDING_UPLOAD_QUOTA_BYTES.verified - 1 * MB);
    // Under the quota a small image still fits...
    expect((await sendImage(client)).status).toBe(201);
    // ...but a body announcing more than the room left is refused up front.
    const big = await rawRequest(server.baseUrl, {
      path: '/api/uploads/track',
      headers: {
        cookie: client.cookieHeader(),
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(5 * MB),
      },
    });
    expect(big.status).toBe(413);
    const message = (big.json as { message: string }).message;
    expect(message).toBe(uploadMessages.quota(2048));
  });

  it('holds room for uploads still streaming: of five sent at once near the quota, only those that fit are taken', async () => {
    const email = uniqueEmail('parallel');
    const client = server.client();
    await registerUser(client, email);
    const file = wav({ seconds: 64 }); // 1 MB
    // Room for three and a half of them.
    pretendPending(email, PENDING_UPLOAD_QUOTA_BYTES.unverified - Math.floor(3.5 * file.length));
    const held = Array.from({ length: 5 }, () => heldTrackUpload(server.baseUrl, client.cookieHeader(), file));
    try {
      // While all five are still sending, the two that do not fit are refused...
      await expect.poll(() => statuses(held).filter((status) => status === 413).length).toBe(2);
      expect(statuses(held).filter((status) => status === undefined)).toHaveLength(3);
      for (const upload of held) {
        if (upload.answer?.status === 413)
          expect(upload.answer.json).toEqual({ code: 'OTHER', message: uploadMessages.quotaUnverified });
        else upload.finish();
      }
      // ...and the three that fit are kept.
      await Promise.all(held.map((upload) => upload.answered));
      expect(statuses(held).toSorted()).toEqual([201, 201, 201, 413, 413]);
    } finally {
      for (const upload of held) if (!upload.answer) upload.abort();
    }
    // Saved, they count as pending instead: nothing is held any more, and the quota is full.
    expect(server.deps.uploadsInFlight.reservedTotal()).toBe(0);
    const fourth = heldTrackUpload(server.baseUrl, client.cookieHeader(), file);
    fourth.finish();
    expect((await fourth.answered).status).toBe(413);
    expect(fs.readdirSync(server.media.dirs.tmp)).toEqual([]);
  });

  it('gives back the room of an upload that failed or was dropped', async () => {
    const email = uniqueEmail('dropped');
    const client = server.client();
    await registerUser(client, email);
    const file = wav({ seconds: 64 });
    pretendPending(email, PENDING_UPLOAD_QUOTA_BYTES.unverified - Math.floor(1.5 * file.length));
    const dropped = heldTrackUpload(server.baseUrl, client.cookieHeader(), file);
    await expect.poll(() => server.deps.uploadsInFlight.reservedTotal()).toBeGreaterThan(0);
    dropped.abort();
    await expect.poll(() => server.deps.uploadsInFlight.reservedTotal()).toBe(0);
    const notAudio = heldTrackUpload(server.baseUrl, client.cookieHeader(), Buffer.alloc(file.length, 'x'));
    notAudio.finish();
    expect((await notAudio.answered).status).toBe(400);
    const kept = heldTrackUpload(server.baseUrl, client.cookieHeader(), file);
    kept.finish();
    expect((await kept.answered).status).toBe(201);
  });

  it('frees the quota once unused uploads are an hour old and cleared', async () => {
    const email = uniqueEmail('patient');
    const client = await verifiedUser(server, email);
    const stale = pretendPending(email, PENDING_UPLOAD_QUOTA_BYTES.verified);
    expect((await sendImage(client)).status).toBe(413);
    // 59 minutes on, nothing is cleared; 61 minutes on, the unused upload goes.
    await cleanupUnusedUploads(server, Date.now() + 59 * 60 * 1000);
    expect(server.db.select().from(uploads).where(eq(uploads.id, stale)).get()).toBeDefined();
    await cleanupUnusedUploads(server, Date.now() + 61 * 60 * 1000);
    expect(server.db.select().from(uploads).where(eq(uploads.id, stale)).get()).toBeUndefined();
    expect((await sendImage(client)).status).toBe(201);
  });
});

describe('the free disk guard', () => {
  it('refuses uploads with a clear 503 while the disk has less free space than MIN_FREE_DISK_MB', async () => {
    const full = await startTestServer({ MIN_FREE_DISK_MB: String(1024 * 1024 * 1024) });
    try {
      const client = full.client();
      await registerUser(client, uniqueEmail('full-disk'));
      const response = await client.post('/api/uploads/image', {
        multipart: imageForm(await png(), 'cover.png', 'image/png'),
      });
      expect(response.status).toBe(503);
      expect(response.json).toEqual({ code: 'OTHER', message: uploadMessages.lowDisk });
      expect(fs.readdirSync(full.media.dirs.tmp)).toEqual([]);
    } finally {
      await full.close();
    }
  });

  it('counts uploads still streaming against the free space: of three sent at once, the one past it is refused', async () => {
    // 350 MB above the floor: two 140 MB uploads fit, a third does not (with room to spare either
    // way for other programs writing to the disk meanwhile).
    const { bavail, bsize } = await fs.promises.statfs(os.tmpdir());
    const freeMb = Math.floor((bavail * bsize) / MB);
    const tight = await startTestServer({ MIN_FREE_DISK_MB: String(freeMb - 350) });
    const held: ReturnType<typeof heldTrackUpload>[] = [];
    try {
      const client = await verifiedUser(tight, uniqueEmail('tight-disk'));
      for (let i = 0; i < 3; i++) {
        held.push(heldTrackUpload(tight.baseUrl, client.cookieHeader(), wav(), 140 * MB));
      }
      await expect.poll(() => statuses(held).filter((status) => status !== undefined)).toEqual([503]);
      expect(held.find((upload) => upload.answer)!.answer!.json).toEqual({
        code: 'OTHER',
        message: uploadMessages.lowDisk,
      });
      for (const upload of held) upload.abort();
      await expect.poll(() => tight.deps.uploadsInFlight.reservedTotal()).toBe(0);
    } finally {
      for (const upload of held) upload.abort();
      await tight.close();
    }
  });
});
