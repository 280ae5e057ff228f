import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackUrls } from '../../shared/answers/library';
import { fundraiserTracks } from '../../server/db/schema';
import { mediaFilesInUse } from '../../server/infra/storage/upload-records';
import { runCli } from '../fixtures/cli';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { startS3Store, type S3Store } from '../fixtures/s3-store';
import { startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';
import type { Fundraiser } from '../../shared/answers/fundraisers';

// `npm run cli -- media-migrate --to s3` (issue 25): a site that kept its media on local disk
// copies them to its bucket, each checked, and can run it again (after an interruption, or once
// the site is stopped to catch what came meanwhile) without copying twice. Then the site runs
// with MEDIA_STORE=s3 from the bucket alone.

let store: S3Store;
let site: TestServer;
let fundraiser: Fundraiser;
let inUse: string[];
const BUYER = 'migrated-buyer@example.org';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function bucketKeys(): Promise<string[]> {
  const listed = await store.client.send(new ListObjectsV2Command({ Bucket: 'media' }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const answer = await store.client.send(new GetObjectCommand({ Bucket: 'media', Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

/** The bucket's variables with media still on local disk: the state before the switch. */
const bucketOnly = () => {
  const { MEDIA_STORE: _store, ...rest } = store.env();
  return rest;
};

const migrate = () => runCli(['media-migrate', '--to', 's3'], site.dataDir, bucketOnly());

beforeAll(async () => {
  store = await startS3Store(['media']);
  site = await startTestServer();
  const owner = await verifiedUser(site, 'migrated-owner@example.org');
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 2 });
  await site.jobs.drain();
  await donate(site, { fundraiserId: fundraiser.id, email: BUYER });
  inUse = [...new Set(mediaFilesInUse(site.db, site.media).map(site.media.keyOf))].sort();
}, 120_000);

afterAll(async () => {
  await site?.close();
  await store?.close();
});

describe('npm run cli -- media-migrate --to s3', () => {
  it('copies every file the database names, each byte for byte, and says so', async () => {
    const run = await migrate();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${inUse.length} files copied to the bucket media`);
    expect(run.stdout).toContain('0 were already there');
    expect(inUse.length).toBeGreaterThan(10);
    // The media, and the claim that makes the bucket this site's (server/infra/storage/bucket-claim.ts).
    expect(await bucketKeys()).toEqual([...inUse, 'soundcause-site.json'].sort());
    for (const key of inUse) {
      const local = fs.readFileSync(`${site.media.root}/${key}`);
      expect(sha256(await objectBytes(key)), key).toBe(sha256(local));
    }
  }, 60_000);

  it('copies nothing twice, and only what is missing or damaged after an interruption', async () => {
    const again = await migrate();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `0 files copied to the bucket media (0.0 MB), each read back and checked; ${inUse.length} were already there.`,
    );

    // An interrupted run left one object out and another half-written (other bytes, no checksum).
    const [gone, damaged] = inUse.filter((key) => key.startsWith('tracks/'));
    await store.client.send(new DeleteObjectCommand({ Bucket: 'media', Key: gone }));
    await store.client.send(new PutObjectCommand({ Bucket: 'media', Key: damaged, Body: 'half' }));
    const resumed = await migrate();
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`2 files copied`);
    expect(resumed.stdout).toContain(`${inUse.length - 2} were already there`);
    const local = fs.readFileSync(`${site.media.root}/${damaged}`);
    expect((await objectBytes(damaged!)).equals(local)).toBe(true);
  }, 60_000);

  it('names a file the database refers to that is not on disk, and fails', async () => {
    const [stream] = inUse.filter((key) => key.startsWith('streams/'));
    const file = `${site.media.root}/${stream}`;
    const kept = fs.readFileSync(file);
    fs.rmSync(file);
    try {
      const run = await migrate();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`missing: ${stream} is named by the database`);
    } finally {
      fs.writeFileSync(file, kept);
    }
  }, 60_000);

  it("refuses another site's bucket, until that bucket is taken over on purpose", async () => {
    const other = await startTestServer();
    try {
      const refused = await runCli(['media-migrate', '--to', 's3'], other.dataDir, bucketOnly());
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("The bucket media holds another site's media");
      expect(refused.stderr).toContain('npm run cli -- take-over-bucket');
      const taken = await runCli(['take-over-bucket'], other.dataDir, bucketOnly());
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stdout).toMatch(/The bucket media is now this site's/);
      expect((await runCli(['media-migrate', '--to', 's3'], other.dataDir, bucketOnly())).code).toBe(0);
      // And back to the site the rest of this file uses.
      expect((await runCli(['take-over-bucket'], site.dataDir, bucketOnly())).code).toBe(0);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('leaves a site that runs from the bucket alone once MEDIA_STORE=s3', async () => {
    // The same data folder with the local media gone: everything comes from the bucket now.
    for (const dir of ['images', 'tracks', 'streams', 'previews']) {
      fs.rmSync(`${site.media.root}/${dir}`, { recursive: true });
      fs.mkdirSync(`${site.media.root}/${dir}`);
    }
    const moved = await startTestServer({ DATA_DIR: site.dataDir, ...store.env() });
    try {
      const buyer = await verifiedUser(moved, BUYER);
      const track = fundraiser.tracksList[0]!;
      const row = moved.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, track.id)).get()!;
      const answer = await buyer.get(trackUrls.stream(track.id, row.streamFile!.replace(/\.mp3$/, '')));
      expect(answer.status).toBe(302);
      const audio = await fetch(answer.headers.get('location')!);
      expect(audio.status).toBe(200);
      expect(sha256(Buffer.from(await audio.arrayBuffer()))).toBe(
        sha256(await objectBytes(`streams/${row.streamFile}`)),
      );
      const zip = await fetch(`${moved.baseUrl}/api/fundraisers/${fundraiser.id}/download`, {
        headers: { cookie: buyer.cookieHeader() },
      });
      expect(zip.status).toBe(200);
      expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    } finally {
      // The test server removes its data folder on close: the first one's close does that.
      await moved.close().catch(() => undefined);
    }
  }, 60_000);
});
