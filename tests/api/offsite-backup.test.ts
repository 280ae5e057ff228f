import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupManifest } from '../../server/infra/backup';
import { mediaFilesInUse } from '../../server/infra/storage/upload-records';
import { runCli } from '../fixtures/cli';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { startS3Store, type S3Store } from '../fixtures/s3-store';
import { startTestServer, type TestServer, verifiedUser } from '../fixtures/test-server';
import type { Fundraiser } from '../../shared/answers/fundraisers';

// Off-site backups (issue 25): `backup s3://BUCKET/PREFIX` writes the folder backup's files under
// PREFIX/<time>/ in a bucket, the manifest last; `restore s3://BUCKET/PREFIX/NAME` restores one
// with the same checks; BACKUP_KEEP keeps the newest N. The CLI runs as an operator runs it,
// against a real S3 server (s3rver).

let store: S3Store;
let site: TestServer;
let fundraiser: Fundraiser;
let donationIntent: string;
const temporary: string[] = [];

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-offsite-'));
  temporary.push(dir);
  return dir;
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The store's variables without MEDIA_STORE: the site keeps its media on disk, backups go off-site. */
const storeOnly = (extra: Record<string, string> = {}) => {
  const { MEDIA_STORE: _local, ...rest } = store.env();
  return { ...rest, ...extra };
};

async function keys(prefix: string): Promise<string[]> {
  const listed = await store.client.send(new ListObjectsV2Command({ Bucket: 'backups', Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function objectText(key: string): Promise<string> {
  const answer = await store.client.send(new GetObjectCommand({ Bucket: 'backups', Key: key }));
  return answer.Body!.transformToString();
}

/** Backs the site up to `url`, expecting success; answers the new backup's name. */
async function backUp(url = 's3://backups/site', env: Record<string, string> = {}) {
  const run = await runCli(['backup', url], site.dataDir, storeOnly(env));
  expect(run.code, run.stderr).toBe(0);
  const name = /to s3:\/\/backups\/[^ ]*?([0-9T-]+Z) in /.exec(run.stdout)?.[1];
  expect(name, run.stdout).toBeDefined();
  return { name: name!, stdout: run.stdout };
}

/** Two backups a second apart at least: a backup's name is its time to the second. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

beforeAll(async () => {
  store = await startS3Store();
  site = await startTestServer();
  const owner = await verifiedUser(site, 'offsite-owner@example.org');
  fundraiser = await createFundraiser(owner, { publish: true, tracks: 2 });
  await site.jobs.drain();
  donationIntent = (await donate(site, { fundraiserId: fundraiser.id, email: 'offsite-fan@example.org' }))
    .paymentIntentId;
}, 120_000);

afterAll(async () => {
  await site?.close();
  await store?.close();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run cli -- backup s3://… / restore s3://…', () => {
  let name: string;

  it('writes the database, every media file it refers to and the manifest under PREFIX/<time>/', async () => {
    ({ name } = await backUp());
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    const manifest = JSON.parse(await objectText(`site/${name}/manifest.json`)) as BackupManifest;
    const inUse = [...new Set(mediaFilesInUse(site.db, site.media).map(site.media.keyOf))].sort();
    expect(manifest.media.map((entry) => entry.path)).toEqual(inUse);
    expect(await keys(`site/${name}/`)).toEqual(
      [
        `site/${name}/manifest.json`,
        `site/${name}/soundcause.db`,
        ...inUse.map((key) => `site/${name}/media/${key}`),
      ].sort(),
    );
    // Each file is what the manifest says, byte for byte the site's.
    const [first] = manifest.media;
    const stored = await store.client.send(
      new GetObjectCommand({ Bucket: 'backups', Key: `site/${name}/media/${first!.path}` }),
    );
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(first!.sha256);
    expect(first!.sha256).toBe(sha256(fs.readFileSync(path.join(site.media.root, first!.path))));

    const listed = await runCli(['backups', 's3://backups/site'], site.dataDir, storeOnly());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim()).toBe(name);
  }, 60_000);

  it('restores it onto a new machine, checked, and the site runs from it', async () => {
    const restoreDir = tempDir();
    const run = await runCli(['restore', `s3://backups/site/${name}`], restoreDir, storeOnly());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Restored the backup of .* each checked against its hash/);
    // Nothing fetched is left beside the restored site.
    expect(fs.readdirSync(restoreDir).filter((entry) => entry.startsWith('restore-'))).toEqual([]);
    const sqlite = new Database(path.join(restoreDir, 'soundcause.db'), { readonly: true });
    try {
      const row = sqlite.prepare('SELECT status FROM donations WHERE payment_intent_id = ?').get(donationIntent);
      expect(row).toEqual({ status: 'succeeded' });
    } finally {
      sqlite.close();
    }
    const restored = await startTestServer({ DATA_DIR: restoreDir });
    try {
      expect((await restored.client().get(`/api/fundraisers/${fundraiser.id}`)).status).toBe(200);
      expect((await fetch(`${restored.baseUrl}/media/images/${fundraiser.albumCover}-400.jpg`)).status).toBe(200);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it('refuses a damaged backup and an incomplete one before touching the site', async () => {
    await nextSecond();
    const damagedName = (await backUp()).name;
    const manifest = JSON.parse(await objectText(`site/${damagedName}/manifest.json`)) as BackupManifest;
    await store.client.send(
      new PutObjectCommand({
        Bucket: 'backups',
        Key: `site/${damagedName}/media/${manifest.media[0]!.path}`,
        Body: 'x',
      }),
    );
    const restoreDir = tempDir();
    const damaged = await runCli(['restore', `s3://backups/site/${damagedName}`], restoreDir, storeOnly());
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(`media/${manifest.media[0]!.path} differs from what was backed up`);
    expect(fs.readdirSync(restoreDir)).toEqual([]);

    await store.client.send(
      new PutObjectCommand({ Bucket: 'backups', Key: 'site/2020-01-01T00-00-00Z/soundcause.db', Body: 'cut off' }),
    );
    const incomplete = await runCli(['restore', 's3://backups/site/2020-01-01T00-00-00Z'], restoreDir, storeOnly());
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toContain('holds no complete backup (no manifest.json)');
    expect(fs.readdirSync(restoreDir)).toEqual([]);

    const wrong = await runCli(['backup', 's3://Not_A_Bucket/x'], site.dataDir, storeOnly());
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('is not an s3:// URL this reads');
  }, 60_000);

  it('keeps the newest BACKUP_KEEP, removing older ones and what cut-off runs left, nothing else', async () => {
    await store.client.send(new PutObjectCommand({ Bucket: 'backups', Key: 'site/notes/readme.txt', Body: 'mine' }));
    // A backup started an hour ago and still being written (no manifest yet) is not removed.
    const writing = new Date(Date.now() - 60 * 60 * 1000)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/:/g, '-');
    await store.client.send(
      new PutObjectCommand({ Bucket: 'backups', Key: `site/${writing}/soundcause.db`, Body: 'x' }),
    );
    const before = await runCli(['backups', 's3://backups/site'], site.dataDir, storeOnly());
    expect(before.stdout).toContain('2020-01-01T00-00-00Z  (incomplete: no manifest, never restored)');
    await nextSecond();
    const third = await backUp('s3://backups/site', { BACKUP_KEEP: '2' });
    expect(third.stdout).toMatch(/Removed 2 older \(BACKUP_KEEP=2\): 2020-01-01T00-00-00Z, \d{4}/);
    const after = await runCli(['backups', 's3://backups/site'], site.dataDir, storeOnly());
    const names = after.stdout.trim().split('\n');
    // Oldest first: the one being written (an hour old), the kept one before the newest, the newest.
    expect(names).toEqual([
      `${writing}  (incomplete: no manifest, never restored)`,
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d-]+Z$/),
      third.name,
    ]);
    expect(await keys('site/notes/')).toEqual(['site/notes/readme.txt']);
    expect(await keys('site/2020-01-01T00-00-00Z/')).toEqual([]);
  }, 60_000);

  it('holds the database only when the media are in a bucket, and says so', async () => {
    const run = await runCli(['backup', 's3://backups/bucketed'], site.dataDir, store.env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no media files (they stay in the bucket media)');
    const [manifestKey] = (await keys('bucketed/')).filter((key) => key.endsWith('manifest.json'));
    const manifest = JSON.parse(await objectText(manifestKey!)) as BackupManifest;
    expect(manifest.media).toEqual([]);
    expect(manifest.mediaBucket).toBe('media');
    expect((await keys('bucketed/')).map((key) => key.split('/').slice(2).join('/'))).toEqual([
      'manifest.json',
      'soundcause.db',
    ]);
  }, 60_000);
});
