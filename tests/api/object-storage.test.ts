import fs from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fundraiser, fundraiserSchema } from '../../shared/answers/fundraisers';
import { trackUrls } from '../../shared/answers/library';
import { fundraisers, fundraiserTracks, uploads } from '../../server/db/schema';
import { cleanupUnusedUploads, removeCrashLeftovers } from '../../server/features/uploads/service';
import { claimMediaBucket } from '../../server/infra/storage/bucket-claim';
import { fileForm, wav } from '../fixtures/audio';
import { imageForm, png } from '../fixtures/images';
import {
  createArtist,
  createFundraiser,
  legacyFormOf,
  uploadImage,
  uploadMusic,
  uploadTrack,
} from '../fixtures/fundraisers';
import { donate } from '../fixtures/donations';
import { startS3Store, type S3Store } from '../fixtures/s3-store';
import { startTestServer, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';
import { craftedZip, readZip, unzipTest } from '../fixtures/zips';

// Media in an S3-compatible bucket (issue 25; DESIGN.md, contract details for wave 3): a real
// S3 server (s3rver) reached through the real AWS SDK. Uploads land in the bucket and nowhere on
// local disk; permission-checked audio answers 302 to a presigned GET on which Range works; public
// media go to MEDIA_PUBLIC_URL; the album zip is built from the bucket's objects; with
// MEDIA_REDIRECTS=false the server passes the bytes on itself.

let store: S3Store;
let server: TestServer;
let owner: TestClient;
let buyer: TestClient;
let stranger: TestClient;
let album: Fundraiser;
/** MEDIA_PUBLIC_URL: the bucket's own path-style URL stands in for a CDN in front of it. */
let publicUrl: string;

const BUYER = 'bucket-buyer@example.org';

async function objectKeys(prefix = ''): Promise<string[]> {
  const listed = await store.client.send(new ListObjectsV2Command({ Bucket: 'media', Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const answer = await store.client.send(new GetObjectCommand({ Bucket: 'media', Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

/** Files on local disk under the media folders: with a bucket, none stays once made. */
function localMediaFiles(target: TestServer): string[] {
  return ['images', 'tracks', 'zips', 'streams', 'previews', 'tmp'].flatMap((dir) =>
    fs.readdirSync(target.media.dirs[dir as keyof typeof target.media.dirs]).map((name) => `${dir}/${name}`),
  );
}

function trackRow(target: TestServer, id: number) {
  return target.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, id)).get()!;
}

const version = (file: string) => file.replace(/\.mp3$/, '');

beforeAll(async () => {
  store = await startS3Store();
  publicUrl = `${store.endpoint}/media`;
  server = await startTestServer({ ...store.env(), MEDIA_PUBLIC_URL: publicUrl });
  owner = await verifiedUser(server, 'bucket-owner@example.org');
  buyer = await verifiedUser(server, BUYER);
  stranger = await verifiedUser(server, 'bucket-stranger@example.org');
  const artist = await createArtist(owner);
  const uploads = await uploadMusic(owner, 0);
  uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 6, frequency: 440 }), 'long.wav'));
  uploads.tracks.push(await uploadTrack(owner, wav({ seconds: 2, frequency: 550 }), 'short.wav'));
  const published = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
  await server.jobs.drain();
  await donate(server, { fundraiserId: published.id, email: BUYER });
  album = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${published.id}`)).json);
  expect(album.tracksList.map((track) => track.status)).toEqual(['ready', 'ready']);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await store?.close();
});

describe('uploads and renditions', () => {
  it('keeps every media file in the bucket and none on local disk', async () => {
    const keys = await objectKeys();
    const prefixes = new Set(keys.map((key) => key.split('/')[0]));
    expect([...prefixes].sort()).toEqual(['images', 'previews', 'streams', 'tracks']);
    // The cover's renditions, the three originals (preview and two tracks), and two renditions per track.
    expect(keys.filter((key) => key.startsWith('tracks/'))).toHaveLength(3);
    expect(keys.filter((key) => key.startsWith('streams/'))).toHaveLength(3);
    expect(keys.filter((key) => key.startsWith('images/')).length).toBeGreaterThanOrEqual(2);
    expect(localMediaFiles(server)).toEqual([]);
  });

  it('stores an original byte for byte with its type', async () => {
    const bytes = wav({ seconds: 1, frequency: 770 });
    const id = await uploadTrack(owner, bytes, 'exact.wav');
    expect((await objectBytes(`tracks/${id}.wav`)).equals(bytes)).toBe(true);
    const head = await store.client.send(new GetObjectCommand({ Bucket: 'media', Key: `tracks/${id}.wav` }));
    expect(head.ContentType).toBe('audio/wav');
  });

  it('streams a 20 MB upload through in parts (a multipart upload), whole in the bucket', async () => {
    // A WAV header before 20 MB of samples: more than two 8 MB parts.
    const header = wav({ seconds: 1 }).subarray(0, 44);
    const body = Buffer.concat([header, Buffer.alloc(20 * 1024 * 1024, 3)]);
    body.writeUInt32LE(body.length - 8, 4);
    body.writeUInt32LE(body.length - 44, 40);
    const id = await uploadTrack(owner, body, 'big.wav');
    const stored = await objectBytes(`tracks/${id}.wav`);
    expect(stored.length).toBe(body.length);
    expect(stored.equals(body)).toBe(true);
    expect(localMediaFiles(server)).toEqual([]);
  });
});

describe('permission-checked audio', () => {
  it('answers a buyer 302 to a presigned GET, never cached, on which Range works', async () => {
    const track = album.tracksList[0]!;
    const row = trackRow(server, track.id);
    const answer = await buyer.get(trackUrls.stream(track.id, version(row.streamFile!)));
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(answer.headers.get('location')!);
    expect(location.origin).toBe(store.endpoint);
    expect(location.pathname).toBe(`/media/streams/${row.streamFile}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const whole = await objectBytes(`streams/${row.streamFile}`);
    const ranged = await fetch(location, { headers: { range: 'bytes=100-1099', origin: 'https://fans.example' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${whole.length}`);
    expect(ranged.headers.get('content-type')).toBe('audio/mpeg');
    // The bucket's CORS lets a page on the site read the range (the offline save is a fetch).
    expect(ranged.headers.get('access-control-allow-origin')).toBe('*');
    expect(ranged.headers.get('access-control-expose-headers')).toMatch(/Content-Range/i);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(100, 1100))).toBe(true);
  });

  it('answers HEAD (the offline save learns sizes so) with a link signed for HEAD', async () => {
    const track = album.tracksList[0]!;
    const row = trackRow(server, track.id);
    const url = `${server.baseUrl}${trackUrls.stream(track.id, version(row.streamFile!))}`;
    const link = async (method: string) => {
      const answer = await fetch(url, { method, headers: { cookie: buyer.cookieHeader() }, redirect: 'manual' });
      expect(answer.status).toBe(302);
      return new URL(answer.headers.get('location')!);
    };
    // A presigned URL is signed for its method: the same object at the same second signs differently for HEAD.
    let headLink = await link('HEAD');
    let getLink = await link('GET');
    while (headLink.searchParams.get('X-Amz-Date') !== getLink.searchParams.get('X-Amz-Date')) {
      headLink = await link('HEAD');
      getLink = await link('GET');
    }
    expect(headLink.pathname).toBe(getLink.pathname);
    expect(headLink.searchParams.get('X-Amz-Signature')).not.toBe(getLink.searchParams.get('X-Amz-Signature'));
    const followed = await fetch(headLink, { method: 'HEAD' });
    expect(followed.status).toBe(200);
    expect(Number(followed.headers.get('content-length'))).toBe(
      (await objectBytes(`streams/${row.streamFile}`)).length,
    );
  });

  it('still refuses those who may not listen, before any redirect', async () => {
    const track = album.tracksList[0]!;
    const url = trackUrls.stream(track.id, version(trackRow(server, track.id).streamFile!));
    expect((await server.client().get(url)).status).toBe(401);
    const refused = await stranger.get(url);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('sends a published preview to MEDIA_PUBLIC_URL, kept for good when the URL names its version', async () => {
    const track = album.tracksList[1]!;
    const row = trackRow(server, track.id);
    const answer = await server.client().get(trackUrls.preview(track.id, version(row.previewFile!)));
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${publicUrl}/previews/${row.previewFile}`);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const fetched = await fetch(answer.headers.get('location')!);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(await objectBytes(`previews/${row.previewFile}`))).toBe(
      true,
    );
  });

  it('sends images to MEDIA_PUBLIC_URL, and refuses names it never made', async () => {
    const [key] = await objectKeys('images/');
    const name = key!.slice('images/'.length);
    const answer = await server.client().get(`/media/images/${name}`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${publicUrl}/images/${name}`);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await server.client().get('/media/images/..%2F..%2Fsoundcause.db')).status).toBe(404);
  });

  it("lets the page's CSP load media from the bucket and the CDN", async () => {
    const page = await server.client().get('/');
    const csp = page.headers.get('content-security-policy')!;
    for (const directive of ['media-src', 'img-src', 'connect-src']) {
      expect(csp).toMatch(new RegExp(`${directive} [^;]*${store.endpoint.replace(/[.:/]/g, '\\$&')}`));
    }
  });
});

describe('the album zip', () => {
  it("is built from the bucket's originals, byte for byte", async () => {
    const response = await fetch(`${server.baseUrl}/api/fundraisers/${album.id}/download`, {
      headers: { cookie: buyer.cookieHeader() },
    });
    expect(response.status).toBe(200);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(zip.length);
    const file = path.join(server.dataDir, 'album.zip');
    fs.writeFileSync(file, zip);
    const tested = unzipTest(file);
    if (tested) expect(tested.ok, tested.output).toBe(true);
    const entries = await readZip(file);
    expect(entries.map((entry) => entry.name)).toEqual(['01 - Track 1.wav', '02 - Track 2.wav']);
    for (const [index, track] of album.tracksList.entries()) {
      const original = await objectBytes(`tracks/${trackRow(server, track.id).uploadId}.wav`);
      expect(entries[index]!.data?.equals(original)).toBe(true);
    }
  });
});

describe('a legacy (v1) album zip', () => {
  it('is kept in the bucket as uploaded and downloaded through a presigned link that names the file', async () => {
    const old = await createFundraiser(owner);
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, old.id)).run();
    const zip = craftedZip([{ name: '01 Old song.wav', data: wav() }]);
    const form = legacyFormOf(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${old.id}`)).json), {}, zip);
    const saved = await owner.patch(`/api/fundraisers/${old.id}/updatev1`, { multipart: form });
    expect(saved.status, saved.text).toBe(200);
    const uploadId = server.db.select().from(fundraisers).where(eq(fundraisers.id, old.id)).get()!.tracksZipUploadId!;
    expect((await objectBytes(`zips/${uploadId}.zip`)).equals(zip)).toBe(true);
    expect(localMediaFiles(server)).toEqual([]);

    const answer = await owner.get(`/api/fundraisers/${old.id}/download`);
    expect(answer.status).toBe(302);
    const link = new URL(answer.headers.get('location')!);
    expect(link.pathname).toBe(`/media/zips/${uploadId}.zip`);
    expect(link.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent(`${old.name}.zip`)}`,
    );
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(zip)).toBe(true);
  });
});

describe('clean-up', () => {
  it('removes objects nothing refers to: a crash leftover at start, an unused upload after an hour', async () => {
    await store.client.send(new PutObjectCommand({ Bucket: 'media', Key: 'streams/leftover.mp3', Body: 'half' }));
    // A "folder" marker some tools make is no file of ours: left alone, and no trouble.
    await store.client.send(new PutObjectCommand({ Bucket: 'media', Key: 'streams/', Body: '' }));
    expect(await removeCrashLeftovers(server.deps)).toBeGreaterThanOrEqual(1);
    expect(await objectKeys('streams/')).not.toContain('streams/leftover.mp3');
    expect(await objectKeys('streams/')).toContain('streams/');
    await store.client.send(new DeleteObjectCommand({ Bucket: 'media', Key: 'streams/' }));

    const unused = await uploadImage(owner);
    expect((await objectKeys('images/')).some((key) => key.startsWith(`images/${unused}-`))).toBe(true);
    await cleanupUnusedUploads(server.deps, Date.now() + 2 * 60 * 60 * 1000);
    expect((await objectKeys('images/')).some((key) => key.startsWith(`images/${unused}-`))).toBe(false);
    // What the album uses stays.
    expect(await objectKeys('streams/')).toHaveLength(3);
  });
});

describe('a store that does not take the file', () => {
  it('answers 503 with a clear message, keeps nothing, and the next try works', async () => {
    const broken = await startTestServer(store.env('no-such-bucket'));
    try {
      const uploader = await verifiedUser(broken, 'bucket-broken@example.org');
      const answer = await uploader.post('/api/uploads/track', {
        multipart: fileForm(wav(), 'track.wav', 'audio/wav', 'trackFile'),
      });
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({
        code: 'OTHER',
        message: 'The file could not be stored just now. Please try again in a moment.',
      });
      expect(answer.headers.get('retry-after')).toBe('5');
      const image = await uploader.post('/api/uploads/image', {
        multipart: imageForm(await png(), 'cover.png', 'image/png'),
      });
      expect(image.status).toBe(503);
      expect(localMediaFiles(broken)).toEqual([]);
      expect(broken.db.select().from(uploads).all()).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe('MEDIA_REDIRECTS=false', () => {
  let proxied: TestServer;
  let listener: TestClient;

  beforeAll(async () => {
    proxied = await startTestServer({ ...store.env(), MEDIA_REDIRECTS: 'false' });
    // The same bucket, another site's database: its own owner, album and buyer.
    const proxiedOwner = await verifiedUser(proxied, 'proxied-owner@example.org');
    const made = await createFundraiser(proxiedOwner, { publish: true, tracks: 1 });
    await proxied.jobs.drain();
    await donate(proxied, { fundraiserId: made.id, email: 'proxied-buyer@example.org' });
    listener = await verifiedUser(proxied, 'proxied-buyer@example.org');
    album = fundraiserSchema.parse((await proxiedOwner.get(`/api/fundraisers/${made.id}`)).json);
  }, 60_000);

  afterAll(() => proxied?.close());

  it("refuses to start on another site's bucket, which it would empty of what it does not know", async () => {
    await claimMediaBucket(server.db, server.media.objects);
    await claimMediaBucket(server.db, server.media.objects); // the same site, again: fine
    expect(await objectKeys('soundcause-site.json')).toEqual(['soundcause-site.json']);
    await expect(claimMediaBucket(proxied.db, proxied.media.objects)).rejects.toThrow(
      /The bucket media holds another site's media/,
    );
  });

  it('passes ranges and validators through the server itself', async () => {
    const track = album.tracksList[0]!;
    const row = trackRow(proxied, track.id);
    const whole = await objectBytes(`streams/${row.streamFile}`);
    const url = trackUrls.stream(track.id, version(row.streamFile!));
    const ranged = await listener.get(url, { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-19/${whole.length}`);
    expect(ranged.headers.get('location')).toBeNull();
    const full = await fetch(`${proxied.baseUrl}${url}`, { headers: { cookie: listener.cookieHeader() } });
    expect(full.status).toBe(200);
    expect(Buffer.from(await full.arrayBuffer()).equals(whole)).toBe(true);
    const etag = full.headers.get('etag')!;
    const again = await listener.get(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
