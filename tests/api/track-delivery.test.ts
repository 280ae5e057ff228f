import fs from 'node:fs';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fundraiser, fundraiserSchema } from '../../shared/answers/fundraisers';
import { trackUrls } from '../../shared/answers/library';
import { fundraisers, fundraiserTracks, users } from '../../server/db/schema';
import { wav } from '../fixtures/audio';
import { openDescriptorsOf } from '../fixtures/descriptors';
import { createArtist, createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { adminClient, registerUser, strongPassword, type TestClient, verifiedUser } from '../fixtures/test-server';
import { donate, startDonation } from '../fixtures/donations';
import { useTestServer } from '../fixtures/use-test-server';

// Delivery of track audio (issue 5; DESIGN.md sections 3 and 4): public previews, full streams
// behind canStream, HTTP ranges and validators, cache headers, and the URLs in the fundraiser JSON.

const server = useTestServer();
let owner: TestClient;
let other: TestClient;
let admin: TestClient;
let buyer: TestClient;
let unverified: TestClient;
let guest: TestClient;
/** Published, two tracks (the first 10 s, so its renditions span several read chunks). */
let album: Fundraiser;
/** A draft of the same owner, one track. */
let draft: Fundraiser;

const YEAR = 'max-age=31536000, immutable';

function trackRow(id: number) {
  return server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, id)).get()!;
}

const version = (file: string) => file.replace(/\.mp3$/, '');
const previewUrl = (id: number) => trackUrls.preview(id, version(trackRow(id).previewFile!));
const streamUrl = (id: number) => trackUrls.stream(id, version(trackRow(id).streamFile!));
const previewBytes = (id: number) => fs.readFileSync(server.media.previewFile(trackRow(id).previewFile!));
const streamBytes = (id: number) => fs.readFileSync(server.media.streamFile(trackRow(id).streamFile!));

/** GET or HEAD with the body as bytes (TestClient reads text, which would mangle MP3 frames). */
async function fetchBytes(client: TestClient, pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  const cookie = client.cookieHeader();
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method,
    headers: { 'x-forwarded-for': client.ip, ...(cookie ? { cookie } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A donation through the payment flow: paid (the album is bought) or only begun. */
async function insertDonation(email: string, fundraiserId: number, status: 'succeeded' | 'pending' = 'succeeded') {
  if (status === 'succeeded') await donate(server, { fundraiserId, email });
  else await startDonation(server, { fundraiserId, email });
}

beforeAll(async () => {
  owner = await verifiedUser(server, 'delivery-owner@example.org');
  other = await verifiedUser(server, 'delivery-other@example.org');
  buyer = await verifiedUser(server, 'delivery-buyer@example.org');
  admin = await adminClient(server, 'delivery-admin@example.org');
  unverified = server.client();
  await registerUser(unverified, 'delivery-unverified@example.org');
  guest = server.client();

  const artist = await createArtist(owner);
  const uploads = await uploadMusic(owner, 0);
  uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 10, frequency: 440 }), 'long.wav'));
  uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 2, frequency: 550 }), 'short.wav'));
  const published = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
  const drafted = await createFundraiser(owner, { artistId: artist.id, tracks: 1 });
  await server.jobs.drain();

  // Purchases belong to an email address, compared without case; a pending one buys nothing.
  await insertDonation('Delivery-Buyer@Example.org', published.id);
  await insertDonation('delivery-unverified@example.org', published.id);
  await insertDonation('delivery-other@example.org', published.id, 'pending');

  album = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${published.id}`)).json);
  draft = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${drafted.id}`)).json);
  expect(album.tracksList.map((track) => track.status)).toEqual(['ready', 'ready']);
}, 120_000);

describe('ranges and validators', () => {
  let url: string;
  let bytes: Buffer;
  let size: number;

  beforeAll(() => {
    const id = album.tracksList[0]!.id;
    url = previewUrl(id);
    bytes = previewBytes(id);
    size = bytes.length;
    // Several 64 KiB read chunks: the body is assembled from more than one read.
    expect(size).toBeGreaterThan(150_000);
  });

  it('answers the whole file with Accept-Ranges, length, type, a strong ETag and Last-Modified', async () => {
    const response = await fetchBytes(guest, url);
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('content-length')).toBe(String(size));
    expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const file = trackRow(album.tracksList[0]!.id).previewFile!;
    expect(response.headers.get('last-modified')).toBe(fs.statSync(server.media.previewFile(file)).mtime.toUTCString());
    expect(response.body.equals(bytes)).toBe(true);
  });

  it('answers the first byte only', async () => {
    const response = await fetchBytes(guest, url, { range: 'bytes=0-0' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 0-0/${size}`);
    expect(response.headers.get('content-length')).toBe('1');
    expect(response.body.equals(bytes.subarray(0, 1))).toBe(true);
  });

  it('answers an open-ended range to the end', async () => {
    const response = await fetchBytes(guest, url, { range: 'bytes=100000-' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100000-${size - 1}/${size}`);
    expect(response.headers.get('content-length')).toBe(String(size - 100000));
    expect(response.body.equals(bytes.subarray(100000))).toBe(true);
  });

  it('answers a suffix range with the last bytes, and the whole file for a suffix longer than it', async () => {
    const last = await fetchBytes(guest, url, { range: 'bytes=-500' });
    expect(last.status).toBe(206);
    expect(last.headers.get('content-range')).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(last.body.equals(bytes.subarray(size - 500))).toBe(true);

    const longer = await fetchBytes(guest, url, { range: `bytes=-${size + 1000}` });
    expect(longer.status).toBe(206);
    expect(longer.headers.get('content-range')).toBe(`bytes 0-${size - 1}/${size}`);
    expect(longer.body.equals(bytes)).toBe(true);
  });

  it('clips a range running past the end, and answers a middle range exactly', async () => {
    const clipped = await fetchBytes(guest, url, { range: `bytes=${size - 10}-${size + 5000}` });
    expect(clipped.status).toBe(206);
    expect(clipped.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect(clipped.body.equals(bytes.subarray(size - 10))).toBe(true);

    // Across a chunk boundary (64 KiB), as a seeking player asks.
    const middle = await fetchBytes(guest, url, { range: 'bytes=65530-131080' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-length')).toBe(String(131080 - 65530 + 1));
    expect(middle.body.equals(bytes.subarray(65530, 131081))).toBe(true);
  });

  it('answers 416 with the size for a range starting at or past the end', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const response = await fetchBytes(guest, url, { range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe(`bytes */${size}`);
      expect(response.body.length, range).toBe(0);
      // An error is not kept by any cache, even under a URL that is cached for good.
      expect(response.headers.get('cache-control'), range).toBe('no-store');
    }
  });

  it('ignores several ranges and malformed ones, answering the whole file', async () => {
    for (const range of ['bytes=0-1,5-6', 'bytes=abc', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes 0-1']) {
      const response = await fetchBytes(guest, url, { range });
      expect(response.status, range).toBe(200);
      expect(response.headers.get('content-range'), range).toBeNull();
      expect(response.body.equals(bytes), range).toBe(true);
    }
  });

  it('answers HEAD with the headers of the whole file and no body, Range or not', async () => {
    const variants: Record<string, string>[] = [{}, { range: 'bytes=0-0' }];
    for (const headers of variants) {
      const response = await fetchBytes(guest, url, headers, 'HEAD');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(size));
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('etag')).toMatch(/^"/);
      expect(response.body.length).toBe(0);
    }
  });

  it('answers 304 to a matching If-None-Match or If-Modified-Since, 200 otherwise', async () => {
    const first = await fetchBytes(guest, url);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await fetchBytes(guest, url, { 'if-none-match': ifNoneMatch });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.body.length).toBe(0);
    }
    const changed = await fetchBytes(guest, url, { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(bytes)).toBe(true);

    expect((await fetchBytes(guest, url, { 'if-modified-since': lastModified })).status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetchBytes(guest, url, { 'if-modified-since': older })).status).toBe(200);
    // If-None-Match decides when both are sent (RFC 9110 section 13.2.2).
    const both = await fetchBytes(guest, url, { 'if-none-match': '"x"', 'if-modified-since': lastModified });
    expect(both.status).toBe(200);
  });

  it('honours If-Range: the range for the same file, the whole file for another validator', async () => {
    const first = await fetchBytes(guest, url);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;

    const same = await fetchBytes(guest, url, { range: 'bytes=10-19', 'if-range': etag });
    expect(same.status).toBe(206);
    expect(same.body.equals(bytes.subarray(10, 20))).toBe(true);
    expect((await fetchBytes(guest, url, { range: 'bytes=10-19', 'if-range': lastModified })).status).toBe(206);

    for (const ifRange of ['"an-older-version"', `W/${etag}`, new Date(0).toUTCString()]) {
      const response = await fetchBytes(guest, url, { range: 'bytes=10-19', 'if-range': ifRange });
      expect(response.status, ifRange).toBe(200);
      expect(response.body.equals(bytes), ifRange).toBe(true);
    }
  });

  it('leaves no file open after whole, partial, HEAD, 304 and 416 answers', async () => {
    const file = server.media.previewFile(trackRow(album.tracksList[0]!.id).previewFile!);
    await fetchBytes(guest, url);
    await fetchBytes(guest, url, { range: 'bytes=0-0' });
    await fetchBytes(guest, url, {}, 'HEAD');
    await fetchBytes(guest, url, { 'if-none-match': '*' });
    await fetchBytes(guest, url, { range: `bytes=${size}-` });
    await vi.waitFor(() => expect(openDescriptorsOf(file)).toBe(0));
  });
});

describe('client aborts', () => {
  it('closes the file and logs nothing when the client goes away mid-body', async () => {
    // A 32 MB rendition, far more than the socket buffers hold, so the body is still being read.
    const track = album.tracksList[1]!;
    const big = 'big-rendition-for-abort.mp3';
    const file = server.media.previewFile(big);
    fs.writeFileSync(file, Buffer.alloc(32 * 1024 * 1024, 1));
    const original = trackRow(track.id).previewFile;
    server.db.update(fundraiserTracks).set({ previewFile: big }).where(eq(fundraiserTracks.id, track.id)).run();
    const errors = vi.spyOn(server.logger, 'error');
    const consoleError = vi.spyOn(console, 'error');
    const consoleInfo = vi.spyOn(console, 'info');
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        await new Promise<void>((resolve, reject) => {
          const request = http.get(`${server.baseUrl}/api/tracks/${track.id}/preview`, (response) => {
            expect(response.statusCode).toBe(200);
            response.once('data', () => {
              expect(openDescriptorsOf(file)).toBe(1);
              request.destroy();
              resolve();
            });
          });
          request.on('error', (error) => {
            if (!request.destroyed) reject(error);
          });
        });
      }
      await vi.waitFor(() => expect(openDescriptorsOf(file)).toBe(0));
      expect(errors).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      expect(consoleInfo).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      consoleError.mockRestore();
      consoleInfo.mockRestore();
      server.db.update(fundraiserTracks).set({ previewFile: original }).where(eq(fundraiserTracks.id, track.id)).run();
      fs.rmSync(file, { force: true });
    }
  });
});

describe('cache headers', () => {
  it('caches a preview for good only under its current version', async () => {
    const track = album.tracksList[0]!;
    const current = await fetchBytes(guest, previewUrl(track.id));
    expect(current.headers.get('cache-control')).toBe(`public, ${YEAR}`);
    for (const pathname of [`/api/tracks/${track.id}/preview`, trackUrls.preview(track.id, 'an-old-rendition')]) {
      const response = await fetchBytes(guest, pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('cache-control'), pathname).toBe('public, no-cache');
    }
  });

  it('caches a stream privately, for good only under its current version', async () => {
    const track = album.tracksList[0]!;
    expect((await fetchBytes(owner, streamUrl(track.id))).headers.get('cache-control')).toBe(`private, ${YEAR}`);
    const unversioned = await fetchBytes(owner, `/api/tracks/${track.id}/stream`);
    expect(unversioned.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('keeps a response that sets or deletes the session cookie out of shared caches', async () => {
    // A forged (dead) session cookie: the answer deletes it and says x-logged-out. A proxy that
    // stored that public answer would log out everyone who gets it from the cache.
    const track = album.tracksList[0]!;
    const response = await fetch(`${server.baseUrl}${previewUrl(track.id)}`, {
      headers: { cookie: 'soundcause_session=forged-session-id' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-logged-out')).toBe('true');
    expect(response.headers.get('set-cookie')).toMatch(/^soundcause_session=;/);
    expect(response.headers.get('cache-control')).toBe(`private, ${YEAR}`);
    // Without a cookie to change, the same preview stays public.
    expect((await fetch(`${server.baseUrl}${previewUrl(track.id)}`)).headers.get('cache-control')).toBe(
      `public, ${YEAR}`,
    );
  });

  it("lets no cache keep a draft's preview, versioned or not", async () => {
    const track = draft.tracksList[0]!;
    for (const pathname of [previewUrl(track.id), `/api/tracks/${track.id}/preview`]) {
      const response = await fetchBytes(owner, pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('never serves new content under an old version as immutable', async () => {
    // A re-render gives the track a new rendition name; the old URL must not be cached for good.
    const track = album.tracksList[1]!;
    const before = trackRow(track.id).previewFile!;
    const oldUrl = previewUrl(track.id);
    const oldEtag = (await fetchBytes(guest, oldUrl)).headers.get('etag')!;
    const renamed = 'rerendered-preview.mp3';
    const newBytes = Buffer.concat([previewBytes(track.id), Buffer.from('new render')]);
    fs.writeFileSync(server.media.previewFile(renamed), newBytes);
    server.db.update(fundraiserTracks).set({ previewFile: renamed }).where(eq(fundraiserTracks.id, track.id)).run();
    try {
      const stale = await fetchBytes(guest, oldUrl);
      expect(stale.headers.get('cache-control')).toBe('public, no-cache');
      expect(stale.body.equals(newBytes)).toBe(true);
      const fresh = await fetchBytes(guest, previewUrl(track.id));
      expect(fresh.headers.get('cache-control')).toBe(`public, ${YEAR}`);
      // A browser revalidating its old copy gets the new bytes, not a 304.
      const revalidated = await fetchBytes(guest, oldUrl, { 'if-none-match': oldEtag });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.equals(newBytes)).toBe(true);
    } finally {
      server.db.update(fundraiserTracks).set({ previewFile: before }).where(eq(fundraiserTracks.id, track.id)).run();
      fs.rmSync(server.media.previewFile(renamed), { force: true });
    }
  });
});

describe('GET /api/tracks/{id}/stream access', () => {
  it('is 401 for guests and 403 for other users, with the API error body', async () => {
    const url = streamUrl(album.tracksList[0]!.id);
    const fromGuest = await guest.get(url);
    expect(fromGuest.status).toBe(401);
    expect(fromGuest.json).toEqual({ code: 'OTHER', message: expect.any(String) });
    const fromOther = await other.get(url);
    expect(fromOther.status).toBe(403);
    expect(fromOther.json).toEqual({ code: 'OTHER', message: expect.any(String) });
  });

  it('plays the full rendition for the owner, admins and a buyer with the verified email', async () => {
    const id = album.tracksList[0]!.id;
    const bytes = streamBytes(id);
    for (const [who, client] of [
      ['owner', owner],
      ['admin', admin],
      ['buyer', buyer],
    ] as const) {
      const response = await fetchBytes(client, streamUrl(id));
      expect(response.status, who).toBe(200);
      expect(response.headers.get('content-type'), who).toBe('audio/mpeg');
      expect(response.body.equals(bytes), who).toBe(true);
      const partial = await fetchBytes(client, streamUrl(id), { range: 'bytes=-100' });
      expect(partial.status, who).toBe(206);
      expect(partial.body.equals(bytes.subarray(bytes.length - 100)), who).toBe(true);
    }
    // The stream is the full track, not the 30-second preview.
    expect(bytes.length).toBeGreaterThan(previewBytes(id).length / 2);
  });

  it('refuses an unverified account with a buyer email, and a pending donation', async () => {
    const url = streamUrl(album.tracksList[0]!.id);
    expect((await unverified.get(url)).status).toBe(403);
    expect((await other.get(url)).status).toBe(403);
  });

  it('is 404 for unknown tracks, and for a draft to those who may not see it', async () => {
    expect((await owner.get('/api/tracks/999999/stream')).status).toBe(404);
    expect((await owner.get('/api/tracks/abc/stream')).status).toBe(404);
    const draftTrack = draft.tracksList[0]!.id;
    expect((await guest.get(streamUrl(draftTrack))).status).toBe(404);
    expect((await other.get(streamUrl(draftTrack))).status).toBe(404);
    const own = await fetchBytes(owner, streamUrl(draftTrack));
    expect(own.status).toBe(200);
    expect(own.body.equals(streamBytes(draftTrack))).toBe(true);
    expect((await fetchBytes(admin, streamUrl(draftTrack))).status).toBe(200);
  });

  it('answers HEAD with the same access rules', async () => {
    const url = streamUrl(album.tracksList[0]!.id);
    expect((await fetchBytes(guest, url, {}, 'HEAD')).status).toBe(401);
    expect((await fetchBytes(other, url, {}, 'HEAD')).status).toBe(403);
    const head = await fetchBytes(buyer, url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(streamBytes(album.tracksList[0]!.id).length));
  });
});

// Issue 13: a session's "yes" to a track is remembered a short while (server/access/stream-grants.ts),
// so the ranges a player asks for skip the lookups. Whatever takes the music away does so at once.
describe('remembered permission to stream', () => {
  /** A range, as a seeking player asks: 206 when allowed. */
  const seek = (client: TestClient, id: number) => fetchBytes(client, streamUrl(id), { range: 'bytes=0-99' });

  it('does not remember a refusal: a new purchase is heard at once', async () => {
    const fan = await verifiedUser(server, 'delivery-new-fan@example.org');
    const id = album.tracksList[0]!.id;
    expect((await seek(fan, id)).status).toBe(403);
    await insertDonation('delivery-new-fan@example.org', album.id);
    expect((await seek(fan, id)).status).toBe(206);
  });

  it('takes a deleted fundraiser from its owner at once, not from its buyer', async () => {
    const created = await createFundraiser(owner, { tracks: 1, publish: true });
    await server.jobs.drain();
    await insertDonation('delivery-buyer@example.org', created.id);
    const id = created.tracksList[0]!.id;
    expect((await seek(owner, id)).status).toBe(206);
    expect((await seek(buyer, id)).status).toBe(206);
    expect((await owner.delete(`/api/fundraisers/${created.id}`)).status).toBe(200);
    expect((await seek(owner, id)).status).toBe(404);
    expect((await seek(buyer, id)).status).toBe(206);
  });

  it('ends with the session: a logged-out cookie streams nothing', async () => {
    const listener = server.client();
    const login = await listener.post('/api/login', {
      form: { email: 'delivery-buyer@example.org', password: strongPassword },
    });
    expect(login.status).toBe(200);
    const cookie = listener.cookieHeader();
    const id = album.tracksList[0]!.id;
    expect((await seek(listener, id)).status).toBe(206);
    expect((await listener.post('/api/logout')).status).toBe(200);
    const replayed = await fetchBytes(guest, streamUrl(id), { cookie, range: 'bytes=0-99' });
    expect(replayed.status).toBe(401);
  });

  it('is asked again at once when the user changes: an admin who is one no more', async () => {
    const former = await adminClient(server, 'delivery-former-admin@example.org');
    const id = album.tracksList[0]!.id;
    expect((await seek(former, id)).status).toBe(206);
    // Straight in the database: nothing tells the grants, the session's fresh user does.
    server.db.update(users).set({ isAdmin: false }).where(eq(users.email, 'delivery-former-admin@example.org')).run();
    expect((await seek(former, id)).status).toBe(403);
  });

  it('looks the track up again when the remembered rendition is gone or another is asked for', async () => {
    const id = album.tracksList[1]!.id;
    const before = trackRow(id).streamFile!;
    const oldBytes = streamBytes(id);
    const oldUrl = streamUrl(id);
    for (const client of [owner, admin]) expect((await fetchBytes(client, oldUrl)).body.equals(oldBytes)).toBe(true);
    // A re-render, written behind the grants' back.
    const renamed = 'rerendered-stream.mp3';
    const newBytes = Buffer.concat([oldBytes, Buffer.from('new render')]);
    fs.writeFileSync(server.media.streamFile(renamed), newBytes);
    server.db.update(fundraiserTracks).set({ streamFile: renamed }).where(eq(fundraiserTracks.id, id)).run();
    try {
      // The current rendition's URL is not answered from a grant naming another.
      const fresh = await fetchBytes(admin, streamUrl(id));
      expect(fresh.status).toBe(200);
      expect(fresh.body.equals(newBytes)).toBe(true);
      // The old file goes, as the pipeline removes it: a grant naming it is dropped, the track looked up again.
      fs.rmSync(server.media.streamFile(before));
      const gone = await fetchBytes(owner, oldUrl);
      expect(gone.status).toBe(200);
      expect(gone.body.equals(newBytes)).toBe(true);
    } finally {
      fs.writeFileSync(server.media.streamFile(before), oldBytes);
      server.db.update(fundraiserTracks).set({ streamFile: before }).where(eq(fundraiserTracks.id, id)).run();
      fs.rmSync(server.media.streamFile(renamed), { force: true });
    }
  });
});

describe('GET /api/tracks/{id}/preview access', () => {
  it('is public for a published fundraiser, with the preview rendition', async () => {
    for (const track of album.tracksList) {
      const response = await fetchBytes(guest, previewUrl(track.id));
      expect(response.status).toBe(200);
      expect(response.body.equals(previewBytes(track.id))).toBe(true);
    }
  });

  it("hides a draft's previews from guests and other users, not from its owner and admins", async () => {
    const url = previewUrl(draft.tracksList[0]!.id);
    const fromGuest = await guest.get(url);
    expect(fromGuest.status).toBe(404);
    expect(fromGuest.json).toEqual({ code: 'OTHER', message: expect.any(String) });
    expect((await other.get(url)).status).toBe(404);
    expect((await fetchBytes(owner, url)).status).toBe(200);
    expect((await fetchBytes(admin, url)).status).toBe(200);
  });

  it('is 404 while processing, after a failure, and for a missing file, never a 500', async () => {
    const uploads = await uploadMusic(owner, 0);
    uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 1, frequency: 0 }), 'silent.wav'));
    const created = await createFundraiser(owner, { uploads, publish: true });
    const id = created.tracksList[0]!.id;
    for (const kind of ['preview', 'stream'] as const) {
      const response = await owner.get(`/api/tracks/${id}/${kind}`);
      expect(response.status, kind).toBe(404);
      expect(response.json).toEqual({ code: 'OTHER', message: 'This track is not available yet.' });
    }
    await server.jobs.drain({ skipBackoff: true });
    expect(trackRow(id).status).toBe('failed');
    for (const kind of ['preview', 'stream'] as const) {
      expect((await owner.get(`/api/tracks/${id}/${kind}`)).status, kind).toBe(404);
    }

    // A rendition named in the database but gone from disk.
    const track = album.tracksList[1]!;
    const before = trackRow(track.id).previewFile;
    server.db
      .update(fundraiserTracks)
      .set({ previewFile: 'no-such-rendition.mp3' })
      .where(eq(fundraiserTracks.id, track.id))
      .run();
    try {
      const missing = await guest.get(`/api/tracks/${track.id}/preview`);
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ code: 'OTHER', message: expect.any(String) });
    } finally {
      server.db.update(fundraiserTracks).set({ previewFile: before }).where(eq(fundraiserTracks.id, track.id)).run();
    }
  });

  it('is 404 once the fundraiser is deleted; the stream stays its buyers’ and admins’ only', async () => {
    const created = await createFundraiser(owner, { tracks: 1, publish: true });
    await server.jobs.drain();
    await insertDonation('delivery-buyer@example.org', created.id);
    await insertDonation('delivery-unverified@example.org', created.id);
    const id = created.tracksList[0]!.id;
    expect((await fetchBytes(guest, previewUrl(id))).status).toBe(200);
    expect((await owner.delete(`/api/fundraisers/${created.id}`)).status).toBe(200);
    // No public face left: the preview is gone for everyone, buyer and admin included.
    for (const client of [guest, owner, buyer, admin]) expect((await client.get(previewUrl(id))).status).toBe(404);
    // The music is the buyer's to keep (and admins', who support them); the owner deleted it.
    const bytes = streamBytes(id);
    for (const [who, client] of [
      ['buyer', buyer],
      ['admin', admin],
    ] as const) {
      const whole = await fetchBytes(client, streamUrl(id));
      expect(whole.status, who).toBe(200);
      expect(whole.body.equals(bytes), who).toBe(true);
      expect(whole.headers.get('cache-control'), who).toBe(`private, ${YEAR}`);
      const partial = await fetchBytes(client, streamUrl(id), { range: 'bytes=0-0' });
      expect(partial.status, who).toBe(206);
      expect(partial.body.equals(bytes.subarray(0, 1)), who).toBe(true);
      expect((await fetchBytes(client, streamUrl(id), {}, 'HEAD')).status, who).toBe(200);
    }
    // To everyone else the track is gone: 404, not the 401/403 of a live fundraiser.
    for (const [who, client] of [
      ['owner', owner],
      ['other', other],
      ['unverified', unverified],
      ['guest', guest],
    ] as const) {
      const response = await client.get(streamUrl(id));
      expect(response.status, who).toBe(404);
      expect(response.json, who).toEqual({ code: 'OTHER', message: 'Track not found.' });
      expect((await fetchBytes(client, streamUrl(id), {}, 'HEAD')).status, who).toBe(404);
    }
  });
});

describe('track URLs in the fundraiser JSON', () => {
  async function asSeenBy(client: TestClient, id = album.id) {
    const response = await client.get(`/api/fundraisers/${id}`);
    expect(response.status).toBe(200);
    return fundraiserSchema.parse(response.json);
  }

  it('gives everyone the versioned preview URL of each ready track', async () => {
    const seen = await asSeenBy(guest);
    expect(seen.tracksList.map((track) => track.previewPath)).toEqual(
      album.tracksList.map((track) => previewUrl(track.id)),
    );
    for (const track of seen.tracksList) {
      const response = await fetchBytes(guest, track.previewPath!);
      expect(response.body.equals(previewBytes(track.id))).toBe(true);
      expect(response.headers.get('cache-control')).toBe(`public, ${YEAR}`);
    }
  });

  it('gives the stream URL only to those who may stream', async () => {
    const expected = album.tracksList.map((track) => streamUrl(track.id));
    for (const [who, client] of [
      ['owner', owner],
      ['admin', admin],
      ['buyer', buyer],
    ] as const) {
      const seen = await asSeenBy(client);
      expect(
        seen.tracksList.map((track) => track.file),
        who,
      ).toEqual(expected);
    }
    for (const [who, client] of [
      ['guest', guest],
      ['other', other],
      ['unverified', unverified],
    ] as const) {
      const seen = await asSeenBy(client);
      expect(
        seen.tracksList.map((track) => track.file),
        who,
      ).toEqual([undefined, undefined]);
    }
    // The URL a buyer gets plays the full rendition, cached for good.
    const seen = await asSeenBy(buyer);
    const response = await fetchBytes(buyer, seen.tracksList[0]!.file!);
    expect(response.body.equals(streamBytes(album.tracksList[0]!.id))).toBe(true);
    expect(response.headers.get('cache-control')).toBe(`private, ${YEAR}`);
  });

  it('gives stream URLs in lists too, per caller', async () => {
    const search = async (client: TestClient) => {
      const json = (await client.get('/api/fundraisers/search')).json as { results: Fundraiser[] };
      return json.results.find((result) => result.id === album.id)!;
    };
    expect((await search(buyer)).tracksList[0]!.file).toBe(streamUrl(album.tracksList[0]!.id));
    expect((await search(other)).tracksList[0]!.file).toBeUndefined();
  });

  it('decides a whole page in one purchase lookup, per fundraiser', async () => {
    const second = await createFundraiser(owner, { tracks: 1, publish: true });
    const third = await createFundraiser(owner, { tracks: 1, publish: true });
    await server.jobs.drain();
    await insertDonation('delivery-buyer@example.org', third.id);
    const purchaseLookups = () => {
      const prepare = vi.spyOn(server.sqlite, 'prepare');
      return {
        count: () =>
          prepare.mock.calls.filter(([text]) => /from "purchases".*lower\("purchases"\."email"\)/i.test(text)).length,
        restore: () => prepare.mockRestore(),
      };
    };
    const lookups = purchaseLookups();
    try {
      const response = await buyer.get('/api/fundraisers/search?pageSize=20');
      expect(lookups.count()).toBe(1);
      const results = (response.json as { results: Fundraiser[] }).results;
      const fileOf = (id: number) => results.find((result) => result.id === id)!.tracksList[0]!.file;
      expect(results.length).toBeGreaterThanOrEqual(3);
      expect(fileOf(album.id)).toBe(streamUrl(album.tracksList[0]!.id));
      expect(fileOf(second.id)).toBeUndefined();
      expect(fileOf(third.id)).toBe(streamUrl(third.tracksList[0]!.id));
    } finally {
      lookups.restore();
    }
  });

  it('has neither URL for a track still processing', async () => {
    const created = await createFundraiser(owner, { tracks: 1 });
    expect(created.tracksList[0]!.status).toBe('processing');
    expect(created.tracksList[0]!.previewPath).toBeUndefined();
    expect(created.tracksList[0]!.file).toBeUndefined();
    await server.jobs.drain();
    const ready = await asSeenBy(owner, created.id);
    expect(ready.tracksList[0]!.previewPath).toBe(previewUrl(created.tracksList[0]!.id));
    expect(ready.tracksList[0]!.file).toBe(streamUrl(created.tracksList[0]!.id));
  });
});

describe('GET /api/fundraisers/{id}/preview', () => {
  function previewTrackStream(fundraiserId: number) {
    const row = server.db.select().from(fundraisers).where(eq(fundraisers.id, fundraiserId)).get()!;
    return row.previewTrackStreamFile!;
  }

  it("serves the preview track's rendition once processed, public and versioned", async () => {
    const file = previewTrackStream(album.id);
    expect(album.previewTrackPreview).toBe(`/api/fundraisers/${album.id}/preview?v=${version(file)}`);
    const bytes = fs.readFileSync(server.media.streamFile(file));
    const response = await fetchBytes(guest, album.previewTrackPreview!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('cache-control')).toBe(`public, ${YEAR}`);
    expect(response.body.equals(bytes)).toBe(true);
    const partial = await fetchBytes(guest, album.previewTrackPreview!, { range: 'bytes=4-' });
    expect(partial.status).toBe(206);
    expect(partial.body.equals(bytes.subarray(4))).toBe(true);
    const unversioned = await fetchBytes(guest, `/api/fundraisers/${album.id}/preview`);
    expect(unversioned.headers.get('cache-control')).toBe('public, no-cache');
    expect(unversioned.body.equals(bytes)).toBe(true);
  });

  it('serves the original upload until processed, and a draft only to its owner, uncached', async () => {
    const created = await createFundraiser(owner, { tracks: 1 });
    expect(created.previewTrackPreview).toBe(`/api/fundraisers/${created.id}/preview`);
    const response = await fetchBytes(owner, created.previewTrackPreview!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.body.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect((await guest.get(created.previewTrackPreview!)).status).toBe(404);
    expect((await other.get(created.previewTrackPreview!)).status).toBe(404);
    await server.jobs.drain();
  });
});
