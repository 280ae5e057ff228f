import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyAfterCrashes, ffmpegProcessesFor, runningTranscodes, unfinishedJobs } from '../fixtures/crash/checks';
import { freePort, processParents, ServerProcess } from '../fixtures/crash/server-process';
import { deliverWebhook, Gate, type MusicOwner, type Payments, Workload } from '../fixtures/crash/workload';
import { FAKE_STRIPE_KEYS, type FakeStripe, startFakeStripe } from '../fixtures/fake-stripe';
import { createArtist, createFundraiser } from '../fixtures/fundraisers';
import { TestClient, verifiedUser } from '../fixtures/test-server';

// Crash safety (issue 14): the real server, as its own process, is killed with SIGKILL again and
// again while donations, uploads and transcoding are under way, and started again each time. At
// the end nothing it acknowledged is lost, no job is stuck, no file is orphaned, the database is
// whole and every fulfilled donation got exactly one receipt. `npm test` runs a few cycles per
// payment provider; `npm run test:crash` runs CRASH_CYCLES (20) of each.

const cycles = Number(process.env.CRASH_CYCLES ?? 3);
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);

/** A small seeded generator (mulberry32), so that a failing run's kill times can be replayed. */
function random(seedValue: number) {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number, stepMs = 20) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(stepMs);
  return condition();
}

const workDirs: string[] = [];
afterAll(() => {
  // Kept when a check failed, for a look at the data folder and the server's log.
  for (const dir of workDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * `processes`: with 2, the site runs as WEB_CONCURRENCY=2 and each kill takes one of its server
 * processes (the one running ffmpeg when there is one) while the other goes on serving; its
 * primary starts another in its place. Without it, the whole server is killed and started again.
 */
async function crashRun(payments: Payments, { processes = 1 }: { processes?: number } = {}) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-crash-'));
  const dataDir = path.join(workDir, 'data');
  const stripeEnv: Record<string, string> =
    payments.kind === 'stripe' ? { ...FAKE_STRIPE_KEYS, STRIPE_API_URL: payments.fake.url } : {};
  const server = new ServerProcess({
    dataDir,
    port: await freePort(),
    logFile: path.join(workDir, 'server.log'),
    env: { ...stripeEnv, WEB_CONCURRENCY: String(processes) },
  });
  const next = random(seed);
  const gate = new Gate();
  await server.start();
  gate.open();

  // The accounts: an artist whose published fundraiser takes the donations, two owners whose draft
  // fundraisers' music keeps being saved, an uploader, and a guest donor.
  const artist = await verifiedUser(server, 'artist@crash.test');
  const published = await createFundraiser(artist, { publish: true, tracks: 1 });
  const owners: MusicOwner[] = [];
  for (const email of ['owner-1@crash.test', 'owner-2@crash.test']) {
    const client = await verifiedUser(server, email);
    const { id: artistId } = await createArtist(client);
    const draft = await createFundraiser(client, { artistId, tracks: 1 });
    owners.push({ client, draft: { id: draft.id, cover: draft.albumCover!, preview: draft.previewTrackFile } });
  }
  const uploader = await verifiedUser(server, 'uploader@crash.test');
  const workload = new Workload(
    { donor: new TestClient(server.baseUrl), uploader, owners, fundraiserId: published.id },
    payments,
    gate,
    { donors: 2, trackSeconds: 30 },
  );

  const kills = { donation: 0, upload: 0, musicSave: 0, transcode: 0, ffmpegLeftRunning: 0 };
  const startMs: number[] = [];
  workload.start();
  try {
    for (let cycle = 0; cycle < cycles; cycle++) {
      await sleep(300 + next() * 1200);
      // Aim the kill at a moment with a payment under way, an upload half-written and a track
      // being transcoded.
      // A moment seen can be over by the time it is taken (a payment ends in milliseconds): it
      // is taken only if it still holds, else awaited again, a few times at most.
      const busy = () => workload.inFlight.donations > 0 && workload.inFlight.uploads > 0;
      let transcoding = 0;
      let inFlight = { ...workload.inFlight };
      for (let aim = 0; aim < 5; aim++) {
        await until(() => busy() && runningTranscodes(dataDir) > 0, 8000, 10);
        await sleep(next() * 10);
        transcoding = runningTranscodes(dataDir);
        inFlight = { ...workload.inFlight };
        if (inFlight.donations > 0 && inFlight.uploads > 0 && transcoding > 0) break;
      }
      if (inFlight.donations > 0) kills.donation++;
      if (inFlight.uploads > 0) kills.upload++;
      if (inFlight.saves > 0) kills.musicSave++;
      if (processes === 1) {
        gate.close();
        await server.kill();
        if (transcoding > 0) kills.transcode++;
        // ffmpeg dies with the server (the kernel's parent-death signal), a moment after it: what
        // still runs once that moment has passed was left running.
        await until(() => ffmpegProcessesFor(dataDir).length === 0, 1000);
        kills.ffmpegLeftRunning += ffmpegProcessesFor(dataDir).length;
        startMs.push(await server.start());
        gate.open();
      } else {
        startMs.push(await killOneServer(server, dataDir, kills));
      }
    }
  } finally {
    await workload.stop();
  }

  // Stripe delivers a webhook again until it is answered.
  if (payments.kind === 'stripe') {
    for (const attempt of workload.ledger.donations) {
      if (attempt.webhook && !attempt.acked) {
        const answer = await deliverWebhook(new TestClient(server.baseUrl), attempt.webhook);
        expect(answer.status, answer.text).toBe(200);
      }
    }
  }
  // The last start takes up what the kills interrupted; wait for the queue to empty.
  const drained = await until(() => unfinishedJobs(dataDir).length === 0, 120_000, 250);
  await server.stop();
  if (!drained) console.error('jobs still unfinished:', unfinishedJobs(dataDir));
  if (processes > 1) {
    // A dead server process's partial uploads went as soon as it had ended (while the others ran
    // on); what else it may have left half-made (a rendition made, not yet recorded) goes with the
    // hourly sweep or at the next start, which is taken here.
    expect(partialUploads(dataDir)).toEqual([]);
    await server.start();
    await server.stop();
  }

  const paidIntents =
    payments.kind === 'stripe'
      ? new Set([...payments.fake.intents.values()].filter((intent) => intent.status === 'succeeded').map((i) => i.id))
      : undefined;
  const verdict = verifyAfterCrashes(dataDir, workload.ledger, paidIntents);
  const f = verdict.figures;
  const acknowledged = f.donationsAcknowledged + f.uploadsAcknowledged + f.musicSavesAcknowledged;
  const lost = f.donationsLost + f.uploadsLost + f.musicSavesLost;
  console.log(
    [
      `crash test, ${payments.kind} payments, ${processes} server process(es) (seed ${seed}): ${cycles} kill cycles, starts ${Math.min(...startMs)}-${Math.max(...startMs)} ms`,
      `  kills during: a donation ${kills.donation}, an upload ${kills.upload}, a music save ${kills.musicSave}, a transcode ${kills.transcode}; ffmpeg left running by kills: ${kills.ffmpegLeftRunning}`,
      `  writes acknowledged: ${acknowledged} (donations ${f.donationsAcknowledged}, uploads ${f.uploadsAcknowledged}, music saves ${f.musicSavesAcknowledged}); writes lost: ${lost}`,
      `  jobs: ${f.jobsDone} done, ${f.jobsFailed} failed, ${f.jobsRecovered} recovered after a kill`,
      `  receipts: ${f.receipts} for ${f.donationsSucceeded} succeeded donations, ${f.duplicateReceipts} duplicates`,
    ].join('\n'),
  );
  if (verdict.problems.length) console.error(`problems (data kept in ${workDir}):\n  ${verdict.problems.join('\n  ')}`);
  else workDirs.push(workDir);
  expect(verdict.problems).toEqual([]);
  expect(lost).toBe(0);
  expect(kills.transcode).toBeGreaterThan(0);
  expect(kills.upload).toBeGreaterThan(0);
  expect(kills.donation).toBeGreaterThan(0);
}

/** Partial uploads in the data folder's tmp/ (none once the server has stopped cleanly). */
const partialUploads = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'media', 'tmp'));

/**
 * kill -9 of one of the site's server processes, the one running ffmpeg when one does; answers
 * how long until its primary had started another that answers.
 */
async function killOneServer(
  server: ServerProcess,
  dataDir: string,
  kills: { transcode: number; ffmpegLeftRunning: number },
) {
  const servers = server.serverPids();
  expect(servers.length).toBeGreaterThan(1);
  const parents = processParents();
  const ffmpegOf = (pid: number) => ffmpegProcessesFor(dataDir).filter((child) => parents.get(child) === pid);
  const victim = servers.find((pid) => ffmpegOf(pid).length > 0) ?? servers[0]!;
  const itsFfmpeg = ffmpegOf(victim);
  const killedAt = Date.now();
  process.kill(victim, 'SIGKILL');
  if (itsFfmpeg.length > 0) kills.transcode++;
  const stillRunning = () => itsFfmpeg.filter((pid) => fs.existsSync(`/proc/${pid}`)).length;
  await until(() => stillRunning() === 0, 1000);
  kills.ffmpegLeftRunning += stillRunning();
  // The primary first takes up what the dead one left (ends its ffmpeg, waiting up to 5 s for it;
  // requeues its jobs; clears its uploads, each transaction waiting its turn behind the other
  // server's writes, up to busy_timeout) and then waits its crash-loop backoff (2 s by the third
  // death in a minute): on a loaded machine that can take well over 20 s, and is still a restart.
  const replaced = await until(() => {
    const now = server.serverPids();
    return now.length === servers.length && !now.includes(victim);
  }, 45_000);
  const logTail = () => fs.readFileSync(server.options.logFile, 'utf8').split('\n').slice(-30).join('\n');
  expect(replaced, `the primary started another server process; the log ends:\n${replaced ? '' : logTail()}`).toBe(
    true,
  );
  return Date.now() - killedAt;
}

describe('crash safety: kill -9 under load', () => {
  it(
    `loses nothing acknowledged over ${cycles} kills (test payment provider)`,
    async () => {
      await crashRun({ kind: 'test' });
    },
    120_000 + cycles * 30_000,
  );

  it(
    `loses nothing acknowledged over ${cycles} kills of one of two server processes (WEB_CONCURRENCY=2)`,
    async () => {
      await crashRun({ kind: 'test' }, { processes: 2 });
    },
    120_000 + cycles * 30_000,
  );

  it(
    `loses nothing acknowledged over ${cycles} kills (Stripe webhooks and the success page)`,
    async () => {
      const fake: FakeStripe = await startFakeStripe();
      try {
        await crashRun({ kind: 'stripe', fake });
      } finally {
        await fake.close();
      }
    },
    120_000 + cycles * 30_000,
  );
});
