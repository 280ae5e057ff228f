import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema';
import type { BackupManifest } from '../../server/infra/backup';
import { mediaStore } from '../../server/infra/storage/media';
import { mediaFilesInUse } from '../../server/infra/storage/upload-records';
import { wav } from '../fixtures/audio';
import { runCli } from '../fixtures/cli';
import { donate } from '../fixtures/donations';
import { createFundraiser, uploadTrack } from '../fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Backups (issue 14): `npm run cli -- backup DIR` while the site runs and `restore DIR`, as an
// operator runs them (the CLI as its own process), against a real running site.

const server = useTestServer();

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-backup-'));
  temporary.push(dir);
  return dir;
};

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A read-only look at the site in `dataDir`: its integrity, its donations and the media its rows name. */
function inspect(dataDir: string) {
  const sqlite = new Database(path.join(dataDir, 'soundcause.db'), { readonly: true, fileMustExist: true });
  try {
    const media = mediaStore(dataDir);
    return {
      integrity: sqlite.pragma('integrity_check', { simple: true }),
      donations: sqlite
        .prepare(
          `SELECT d.payment_intent_id AS intent, d.status, p.id AS purchase FROM donations d
           LEFT JOIN purchases p ON p.donation_id = d.id`,
        )
        .all() as { intent: string; status: string; purchase: number | null }[],
      inUse: mediaFilesInUse(drizzle(sqlite, { schema }), media).map((file) => path.relative(media.root, file)),
      stored: ['images', 'tracks', 'zips', 'streams', 'previews'].flatMap((dir) =>
        fs.readdirSync(path.join(media.root, dir)).map((name) => `${dir}/${name}`),
      ),
      root: media.root,
    };
  } finally {
    sqlite.close();
  }
}

function readManifest(backupDir: string): BackupManifest {
  return JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
}

describe('npm run cli -- backup / restore', () => {
  it('restores a running site as it was: its donations, every media file by hash, a whole database', async () => {
    const owner = await verifiedUser(server, 'backup-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 2 });
    const before = await donate(server, { fundraiserId: fundraiser.id, email: 'before@example.org' });
    await server.jobs.drain();

    const backupDir = path.join(tempDir(), 'backup');
    const backup = await runCli(['backup', backupDir], server.dataDir);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up .* integrity ok\) and \d+ media files/);
    const after = await donate(server, { fundraiserId: fundraiser.id, email: 'after@example.org' });

    // Onto a new machine: an empty data folder.
    const restoreDir = tempDir();
    const restore = await runCli(['restore', backupDir], restoreDir);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = inspect(restoreDir);
    expect(restored.integrity).toBe('ok');
    expect(restored.donations.find((row) => row.intent === before.paymentIntentId)).toMatchObject({
      status: 'succeeded',
      purchase: expect.any(Number),
    });
    expect(restored.donations.find((row) => row.intent === after.paymentIntentId)).toBeUndefined();
    // Every file the restored rows name is there, byte for byte the running site's; nothing else is.
    const live = inspect(server.dataDir);
    expect(restored.inUse.length).toBeGreaterThan(10);
    expect(restored.stored.sort()).toEqual([...new Set(restored.inUse)].sort());
    for (const file of restored.inUse) {
      expect(sha256(path.join(restored.root, file)), file).toBe(sha256(path.join(live.root, file)));
    }
    expect(readManifest(backupDir).media.map((entry) => entry.path)).toEqual([...new Set(restored.inUse)].sort());

    // The restored site runs: the fundraiser with its processed tracks, its cover, the donor's album.
    const site = await startTestServer({ DATA_DIR: restoreDir });
    try {
      const page = await site.client().get(`/api/fundraisers/${fundraiser.id}`);
      expect(page.status).toBe(200);
      expect(page.json).toMatchObject({ name: fundraiser.name });
      expect((await fetch(`${site.baseUrl}/media/images/${fundraiser.albumCover}-400.jpg`)).status).toBe(200);
      const buyer = await verifiedUser(site, 'before@example.org');
      const library = (await buyer.get('/api/music-library/purchases')).json as { results: { projectId: number }[] };
      expect(library.results.map((album) => album.projectId)).toEqual([fundraiser.id]);
    } finally {
      await site.close();
    }
  }, 120_000);

  it('refuses to restore over the running site without --force, and with it restores under it', async () => {
    const owner = await verifiedUser(server, 'force-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 1 });
    const backupDir = path.join(tempDir(), 'backup');
    expect((await runCli(['backup', backupDir], server.dataDir)).code).toBe(0);
    const later = await donate(server, { fundraiserId: fundraiser.id, email: 'later@example.org' });

    const refused = await runCli(['restore', backupDir], server.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The site is running on');
    expect(inspect(server.dataDir).donations.some((row) => row.intent === later.paymentIntentId)).toBe(true);

    const forced = await runCli(['restore', backupDir, '--force'], server.dataDir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('under the running site');
    // The running site reads the restored database at once: the later donation is gone.
    expect(inspect(server.dataDir).integrity).toBe('ok');
    expect(inspect(server.dataDir).donations.some((row) => row.intent === later.paymentIntentId)).toBe(false);
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).status).toBe(200);
  }, 120_000);

  it('refuses a damaged or incomplete backup before touching the site', async () => {
    const backupDir = path.join(tempDir(), 'backup');
    expect((await runCli(['backup', backupDir], server.dataDir)).code).toBe(0);
    const target = tempDir();
    const [first] = readManifest(backupDir).media;
    fs.appendFileSync(path.join(backupDir, 'media', first!.path), 'x');
    const damaged = await runCli(['restore', backupDir], target);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(`media/${first!.path} differs from what was backed up`);
    expect(fs.existsSync(path.join(target, 'soundcause.db'))).toBe(false);

    fs.rmSync(path.join(backupDir, 'manifest.json'));
    expect((await runCli(['restore', backupDir], target)).stderr).toContain('holds no complete backup');
    expect((await runCli(['backup', backupDir], server.dataDir)).stderr).toContain('is not empty');
  }, 120_000);

  it('takes a consistent backup while donations, uploads and transcoding go on', async () => {
    const owner = await verifiedUser(server, 'busy-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 2 });
    const draft = await createFundraiser(owner, { artistId: fundraiser.artistId, tracks: 1 });
    // Enough media that the copy takes a while.
    for (let i = 0; i < 12; i++)
      await uploadTrack(owner, wav({ seconds: 20, sampleRate: 22_050, frequency: 200 + i * 40 }));
    server.jobs.start();

    let running = true;
    const acked: { intent: string; at: number }[] = [];
    let writesDuringBackup = 0;
    let backupStarted = Infinity;
    const loops = [
      (async () => {
        for (let n = 0; running; n++) {
          const intent = await donate(server, { fundraiserId: fundraiser.id, email: `busy-${n}@example.org` });
          acked.push({ intent: intent.paymentIntentId, at: Date.now() });
        }
      })(),
      (async () => {
        // Music saves replace the tracks: renditions are rendered and the replaced ones removed.
        for (let n = 0; running; n++) {
          const tracks = [await uploadTrack(owner, wav({ seconds: 4, frequency: 300 + n }))];
          const saved = await owner.patch('/api/fundraisers/music', {
            json: {
              id: draft.id,
              albumCover: draft.albumCover,
              previewTrackName: 'Preview',
              previewTrackFile: draft.previewTrackFile,
              trackList: tracks.map((file, index) => ({ name: `Take ${index + 1}`, file })),
            },
          });
          expect(saved.status, saved.text).toBe(200);
          if (Date.now() > backupStarted) writesDuringBackup++;
        }
      })(),
    ];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      backupStarted = Date.now();
      const backupDir = path.join(tempDir(), 'backup');
      const backup = await runCli(['backup', backupDir], server.dataDir);
      const backupEnded = Date.now();
      expect(backup.code, backup.stderr).toBe(0);
      writesDuringBackup += acked.filter((write) => write.at > backupStarted && write.at < backupEnded).length;

      const restoreDir = tempDir();
      expect((await runCli(['restore', backupDir], restoreDir)).code).toBe(0);
      const restored = inspect(restoreDir);
      expect(restored.integrity).toBe('ok');
      expect(restored.stored.sort()).toEqual([...new Set(restored.inUse)].sort());
      const manifest = new Map(readManifest(backupDir).media.map((entry) => [entry.path, entry.sha256]));
      for (const file of restored.inUse) expect(sha256(path.join(restored.root, file))).toBe(manifest.get(file));
      const succeeded = new Set(
        restored.donations.filter((row) => row.status === 'succeeded').map((row) => row.intent),
      );
      const ackedBefore = acked.filter((write) => write.at < backupStarted);
      expect(ackedBefore.length).toBeGreaterThan(0);
      for (const write of ackedBefore) expect(succeeded.has(write.intent)).toBe(true);
      expect(writesDuringBackup).toBeGreaterThan(0);
    } finally {
      running = false;
      await Promise.all(loops);
      await server.jobs.stop();
    }
  }, 120_000);
});
