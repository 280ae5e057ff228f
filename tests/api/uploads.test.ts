import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { uploads } from '../../server/db/schema';
import { cleanupUnusedUploads, removeCrashLeftovers } from '../../server/features/uploads/service';
import { createFundraiser } from '../fixtures/fundraisers';
import { imageForm, jpegWithGps, png } from '../fixtures/images';
import { rawRequest, registerUser, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();

let counter = 0;
async function loggedIn() {
  const client = server.client();
  await registerUser(client, `uploader-${++counter}@example.org`);
  return client;
}

const storedFiles = () => ({
  images: fs.readdirSync(server.media.dirs.images).sort(),
  tmp: fs.readdirSync(server.media.dirs.tmp),
  rows: server.db.select().from(uploads).all().length,
});

describe('POST /api/uploads/image', () => {
  it('needs a session (but not a verified email)', async () => {
    const guest = await server
      .client()
      .post('/api/uploads/image', { multipart: imageForm(await png(), 'a.png', 'image/png') });
    expect(guest.status).toBe(401);
    const unverified = await loggedIn();
    const response = await unverified.post('/api/uploads/image', {
      multipart: imageForm(await png(), 'a.png', 'image/png'),
    });
    expect(response.status).toBe(201);
  });

  it('re-encodes a JPEG to 96/400/1200 px WebP and JPEG with no EXIF or GPS left, served for a year', async () => {
    const client = await loggedIn();
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await client.post('/api/uploads/image', { multipart: imageForm(original, 'holiday.jpg') });
    expect(response.status).toBe(201);
    const { id } = response.json as { id: string };
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    for (const width of [96, 400, 1200]) {
      for (const format of ['webp', 'jpg']) {
        const served = await fetch(`${server.baseUrl}/media/images/${id}-${width}.${format}`);
        expect(served.status).toBe(200);
        expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const bytes = Buffer.from(await served.arrayBuffer());
        const meta = await sharp(bytes).metadata();
        expect(meta.format).toBe(format === 'jpg' ? 'jpeg' : 'webp');
        expect(meta.width).toBe(width);
        expect(meta.exif).toBeUndefined();
        expect(bytes.includes(Buffer.from('secret-owner'))).toBe(false);
      }
    }
    // Nothing of the original is kept.
    expect(storedFiles().tmp).toEqual([]);
  });

  it('puts transparent PNGs on white in the JPEG renditions', async () => {
    const client = await loggedIn();
    const clear = await sharp({
      create: { width: 200, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const { id } = (await client.post('/api/uploads/image', { multipart: imageForm(clear, 'clear.png', 'image/png') }))
      .json as { id: string };
    const jpeg = Buffer.from(await (await fetch(`${server.baseUrl}/media/images/${id}-96.jpg`)).arrayBuffer());
    const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((channel) => channel > 240)).toBe(true);
  });

  it('removes the partial file when the client goes away mid-upload', async () => {
    const client = await loggedIn();
    const cookie = client.cookieHeader();
    const { request } = await import('node:http');
    const req = request(`${server.baseUrl}/api/uploads/image`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'multipart/form-data; boundary=XB',
        'content-length': String(10 * 1024 * 1024),
        cookie,
        'x-forwarded-for': client.ip,
      },
    });
    req.on('error', () => undefined);
    req.write(
      '--XB\r\nContent-Disposition: form-data; name="imageFile"; filename="gone.png"\r\nContent-Type: image/png\r\n\r\n',
    );
    req.write(Buffer.concat([(await png()).subarray(0, 8), Buffer.alloc(512 * 1024)]));
    await expect.poll(() => storedFiles().tmp).toHaveLength(1);
    req.destroy();
    await expect.poll(() => storedFiles().tmp, { timeout: 5000 }).toEqual([]);
  });

  it('never enlarges a small image', async () => {
    const client = await loggedIn();
    const response = await client.post('/api/uploads/image', {
      multipart: imageForm(await png(300, 200), 'small.png', 'image/png'),
    });
    const { id } = response.json as { id: string };
    const large = Buffer.from(await (await fetch(`${server.baseUrl}/media/images/${id}-1200.jpg`)).arrayBuffer());
    expect((await sharp(large).metadata()).width).toBe(300);
  });

  it('checks the type by content: text named .png is refused and nothing is written', async () => {
    const client = await loggedIn();
    const before = storedFiles();
    const response = await client.post('/api/uploads/image', {
      multipart: imageForm('just some text, not an image', 'photo.png', 'image/png'),
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ code: 'OTHER', message: 'File type must be one of the following: jpeg, jpg, png' });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a file with image magic bytes that is not a readable image, leaving nothing', async () => {
    const client = await loggedIn();
    const before = storedFiles();
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 7)]);
    const response = await client.post('/api/uploads/image', { multipart: imageForm(fake, 'broken.jpg') });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ message: 'The image could not be read. Please choose another file.' });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a file over 100 MB with 413 and keeps nothing of it', async () => {
    const client = await loggedIn();
    const before = storedFiles();
    const huge = Buffer.alloc(100 * 1024 * 1024 + 10);
    huge.set([0xff, 0xd8, 0xff]);
    const response = await client.post('/api/uploads/image', { multipart: imageForm(huge, 'huge.jpg') });
    expect(response.status).toBe(413);
    expect(response.json).toEqual({ code: 'OTHER', message: 'File must be less than 100 MB' });
    expect(storedFiles()).toEqual(before);
  });

  it('answers a truncated multipart body with 400 and removes the partial file', async () => {
    const client = await loggedIn();
    const before = storedFiles();
    const cookie = client.cookieHeader();
    const body = [
      '--XBOUNDARY',
      'Content-Disposition: form-data; name="imageFile"; filename="cut.png"',
      'Content-Type: image/png',
      '',
      (await png()).subarray(0, 200).toString('latin1'),
    ].join('\r\n');
    const response = await rawRequest(server.baseUrl, {
      path: '/api/uploads/image',
      headers: { 'content-type': 'multipart/form-data; boundary=XBOUNDARY', cookie },
      body,
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ message: 'The upload was interrupted. Please try again.' });
    expect(storedFiles()).toEqual(before);
  });

  it('ignores path-like file names: files get generated names inside the media folder', async () => {
    const client = await loggedIn();
    const response = await client.post('/api/uploads/image', {
      multipart: imageForm(await png(), '../../../etc/evil.png', 'image/png'),
    });
    expect(response.status).toBe(201);
    const { id } = response.json as { id: string };
    const row = server.db.select().from(uploads).where(eq(uploads.id, id)).get();
    expect(row?.originalName).toBe('evil.png');
    expect(storedFiles().images.filter((name) => name.startsWith(id))).toHaveLength(6);
    expect(fs.existsSync(`${server.dataDir}/etc`)).toBe(false);
  });

  it('refuses the wrong field, two files and a non-multipart body with clear 4xx answers', async () => {
    const client = await loggedIn();
    const wrongField = await client.post('/api/uploads/image', {
      multipart: imageForm(await png(), 'a.png', 'image/png', 'photo'),
    });
    expect(wrongField.status).toBe(400);
    expect(wrongField.json).toMatchObject({ message: 'Please send the file in the "imageFile" field.' });

    const two = imageForm(await png(), 'a.png', 'image/png');
    two.append('imageFile', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'b.png');
    const twoFiles = await client.post('/api/uploads/image', { multipart: two });
    expect(twoFiles.status).toBe(400);
    expect(twoFiles.json).toMatchObject({ message: 'Please upload a single file.' });

    const json = await client.post('/api/uploads/image', { json: { imageFile: 'x' } });
    expect(json.status).toBe(415);
    expect(storedFiles().tmp).toEqual([]);
  });
});

describe('upload limits', () => {
  it('takes at most 60 images an hour from one user', async () => {
    const client = await loggedIn();
    const image = await png(20, 20);
    for (let n = 0; n < 60; n++) {
      expect(
        (await client.post('/api/uploads/image', { multipart: imageForm(image, 'a.png', 'image/png') })).status,
      ).toBe(201);
    }
    const refused = await client.post('/api/uploads/image', { multipart: imageForm(image, 'a.png', 'image/png') });
    expect(refused.status).toBe(429);
  });
});

describe('refused forms', () => {
  it('leaves no partial file when a file part follows the part that got the form refused', async () => {
    const client = await loggedIn();
    const boundary = 'race-boundary';
    const part = (headers: string, body: string | Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    for (const first of [
      // A field over the 64 KB a field may hold, then the file.
      part('Content-Disposition: form-data; name="note"', 'x'.repeat(70 * 1024)),
      // A file in the wrong field, then the right one.
      part('Content-Disposition: form-data; name="other"; filename="a.png"\r\nContent-Type: image/png', 'x'),
    ]) {
      // One write, so the parser holds both parts when the first one fails.
      const body = Buffer.concat([
        first,
        part(
          'Content-Disposition: form-data; name="imageFile"; filename="b.png"\r\nContent-Type: image/png',
          await png(),
        ),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const response = await fetch(`${server.baseUrl}/api/uploads/image`, {
        method: 'POST',
        headers: { cookie: client.cookieHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(response.status).toBe(400);
      await expect.poll(() => fs.readdirSync(server.media.dirs.tmp)).toEqual([]);
    }
  });
});

describe('GET /media/images', () => {
  it('answers only well-formed rendition names, never anything outside the images folder', async () => {
    for (const path of ['/media/images/nope.jpg', '/media/images/..%2f..%2fsoundcause.db', '/media/images/%2e%2e/x']) {
      expect((await fetch(`${server.baseUrl}${path}`)).status).toBe(404);
    }
    expect((await fetch(`${server.baseUrl}/media/images/AAAAAAAAAAAAAAAAAAAAAA-400.jpg`)).status).toBe(404);
  });
});

describe('cleaning up unused uploads', () => {
  it('removes uploads nothing uses once they are an hour old, with their files', async () => {
    const client = await loggedIn();
    const fresh = (await client.post('/api/uploads/image', { multipart: imageForm(await png(), 'a.png', 'image/png') }))
      .json as { id: string };
    const old = (await client.post('/api/uploads/image', { multipart: imageForm(await png(), 'b.png', 'image/png') }))
      .json as { id: string };
    server.db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - 61 * 60 * 1000) })
      .where(eq(uploads.id, old.id))
      .run();
    await cleanupUnusedUploads(server);
    const names = storedFiles().images;
    expect(names.some((name) => name.startsWith(old.id))).toBe(false);
    expect(names.filter((name) => name.startsWith(fresh.id))).toHaveLength(6);
    expect(server.db.select().from(uploads).where(eq(uploads.id, old.id)).get()).toBeUndefined();
  });

  it('at start-up removes what a crash left half-made, however new, and keeps every recorded file', async () => {
    const owner = await verifiedUser(server, `crash-owner-${++counter}@example.org`);
    await createFundraiser(owner, { tracks: 1 });
    await server.jobs.drain();
    const everything = () =>
      Object.values(server.media.dirs)
        .flatMap((dir) => fs.readdirSync(dir).map((name) => `${dir}/${name}`))
        .sort();
    const kept = everything();
    const { dirs } = server.media;
    // A partial upload, an original and an image stored but never recorded, renditions rendered
    // but never recorded: each a moment old, as a kill -9 leaves them.
    const leftovers = [
      `${dirs.tmp}/0123456789abcdef0123456789abcdef.part`,
      `${dirs.tracks}/AAAAAAAAAAAAAAAAAAAAAA.wav`,
      `${dirs.images}/BBBBBBBBBBBBBBBBBBBB-C-400.jpg`,
      `${dirs.streams}/DDDDDDDDDDDDDDDDDDDDDD.mp3`,
      `${dirs.previews}/EEEEEEEEEEEEEEEEEEEEEE.mp3`,
    ];
    for (const file of leftovers) fs.writeFileSync(file, 'half');
    // While the server runs they may be writes in progress: the hourly cleanup leaves them.
    await cleanupUnusedUploads(server);
    expect(everything()).toEqual([...kept, ...leftovers].sort());
    expect(await removeCrashLeftovers(server.deps)).toBe(leftovers.length);
    expect(everything()).toEqual(kept);
  });
});
