import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploadMessages } from '../../shared/schemas/uploads';
import { uploads, users } from '../../server/db/schema';
import { cleanupUnusedUploads, PENDING_UPLOAD_QUOTA_BYTES } from '../../server/features/uploads/service';
import { newUploadId } from '../../server/infra/storage/media';
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
});
