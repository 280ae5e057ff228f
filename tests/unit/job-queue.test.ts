import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import {
  claimNext,
  enqueue,
  findJob,
  interruptedTooOftenMessage,
  MAX_INTERRUPTIONS,
} from '../../server/infra/jobs/queue';
import { createJobRunner, type JobHandler, type JobLane, PermanentJobError } from '../../server/infra/jobs/runner';
import { createLogger } from '../../server/infra/logger';
import { formatIdentity, identify, type ProcessIdentity } from '../../server/infra/processes/identity';

// The durable job queue on a real SQLite file, with an injectable clock for the backoff. Other
// server processes are real processes (a `sleep`), alive or ended, as /proc sees them.

let dir: string;
let opened: ReturnType<typeof openDatabase>;
const logger = createLogger('silent');

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-jobs-'));
  opened = openDatabase(path.join(dir, 'jobs.db'));
});

const others: ChildProcess[] = [];

afterEach(() => {
  for (const other of others.splice(0)) other.kill('SIGKILL');
  opened.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Another process on this machine, running (it stands for another server sharing the database). */
async function otherProcess(): Promise<{ identity: ProcessIdentity; end: () => Promise<void> }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  others.push(child);
  await expect.poll(() => child.pid !== undefined && identify(child.pid)).toBeTruthy();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    identity: identify(child.pid!)!,
    end: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The identity of a server process that has ended (it crashed). */
async function endedServer(): Promise<string> {
  const other = await otherProcess();
  await other.end();
  return formatIdentity(other.identity);
}

function runner(handlers: Record<string, JobHandler>, clock: { now: number }, lanes: JobLane[] = [{ workers: 1 }]) {
  return createJobRunner({
    db: opened.db,
    logger,
    handlers,
    lanes,
    pollMs: 10,
    now: () => clock.now,
    backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
  });
}

describe('job queue', () => {
  it('retries a failing job with exponential backoff, then gives up once', async () => {
    const clock = { now: 1_000_000 };
    const gaveUp: unknown[] = [];
    const jobs = runner(
      {
        flaky: {
          run: async () => {
            throw new Error('disk on fire');
          },
          giveUp: (payload) => void gaveUp.push(payload),
        },
      },
      clock,
    );
    const job = enqueue(opened.db, 'flaky', { n: 1 }, { runAt: new Date(clock.now), maxAttempts: 3 });

    expect(await jobs.runOnce()).toBe(true);
    let row = findJob(opened.db, job.id)!;
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'disk on fire' });
    expect(row.runAt.getTime()).toBe(clock.now + 1000);
    // Not due yet: nothing runs until the clock moves.
    expect(await jobs.runOnce()).toBe(false);

    clock.now += 1000;
    expect(await jobs.runOnce()).toBe(true);
    row = findJob(opened.db, job.id)!;
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row.runAt.getTime()).toBe(clock.now + 2000);

    clock.now += 2000;
    expect(await jobs.runOnce()).toBe(true);
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'failed', attempts: 3, lockedAt: null });
    expect(gaveUp).toEqual([{ n: 1 }]);
    expect(await jobs.drain({ skipBackoff: true })).toBe(0);
  });

  it('fast-forwards through the backoff when draining with skipBackoff', async () => {
    const clock = { now: 5_000 };
    let calls = 0;
    const jobs = runner(
      {
        second: {
          run: async () => {
            calls++;
            if (calls < 2) throw new Error('not yet');
          },
        },
      },
      clock,
    );
    const job = enqueue(opened.db, 'second', {}, { runAt: new Date(clock.now) });
    expect(await jobs.drain({ skipBackoff: true })).toBe(2);
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'done', attempts: 2, lastError: null });
  });

  it('does not retry a permanent failure', async () => {
    const clock = { now: 5_000 };
    const jobs = runner(
      {
        hopeless: {
          run: async () => {
            throw new PermanentJobError('silent');
          },
        },
      },
      clock,
    );
    const job = enqueue(opened.db, 'hopeless', {}, { runAt: new Date(clock.now) });
    await jobs.drain({ skipBackoff: true });
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'silent' });
  });

  it('takes up jobs a crash left running without using an attempt, even one on its last attempt', async () => {
    const clock = { now: 10_000 };
    const done: number[] = [];
    const handlers = { work: { run: async (payload: unknown) => void done.push((payload as { n: number }).n) } };
    const first = enqueue(opened.db, 'work', { n: 1 }, { runAt: new Date(clock.now) });
    const last = enqueue(opened.db, 'work', { n: 2 }, { runAt: new Date(clock.now), maxAttempts: 1 });
    // A previous server claimed both and died (a crash, a restart: not the jobs' fault).
    const crashed = await endedServer();
    expect(claimNext(opened.db, clock.now, { owner: crashed })?.id).toBe(first.id);
    expect(claimNext(opened.db, clock.now, { owner: crashed })?.id).toBe(last.id);
    expect(await runner(handlers, clock).drain()).toBe(0);

    clock.now += 1;
    const jobs = runner(handlers, clock);
    await jobs.start();
    await jobs.stop();
    await jobs.drain();
    expect(done.sort()).toEqual([1, 2]);
    expect(findJob(opened.db, first.id)).toMatchObject({ status: 'done', attempts: 1, interruptions: 1 });
    expect(findJob(opened.db, last.id)).toMatchObject({ status: 'done', attempts: 1, interruptions: 1 });
  });

  it('leaves a running job to the server running it while that server lives', async () => {
    const clock = { now: 10_000 };
    const job = enqueue(opened.db, 'work', {}, { runAt: new Date(clock.now) });
    const other = await otherProcess();
    expect(claimNext(opened.db, clock.now, { owner: formatIdentity(other.identity) })?.id).toBe(job.id);

    const jobs = runner({ work: { run: async () => undefined } }, clock);
    await jobs.recover();
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'running', interruptions: 0 });

    await other.end();
    await jobs.recover();
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: 1 });
  });

  it('does not take a running job for abandoned when its pid now belongs to another process', async () => {
    const clock = { now: 10_000 };
    const job = enqueue(opened.db, 'work', {}, { runAt: new Date(clock.now) });
    // The pid of a live process, but not the start time it had when it claimed the job: the
    // server that claimed it has ended and the system gave its pid to something else.
    const other = await otherProcess();
    const reused = formatIdentity({ ...other.identity, startTicks: other.identity.startTicks - 1 });
    expect(claimNext(opened.db, clock.now, { owner: reused })?.id).toBe(job.id);
    await runner({ work: { run: async () => undefined } }, clock).recover();
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'queued', interruptions: 1 });
  });

  it('runs a job again after more than five crashes under it, and it succeeds on its first attempt', async () => {
    const clock = { now: 10_000 };
    const handlers = { long: { run: async () => undefined } };
    const job = enqueue(opened.db, 'long', {}, { runAt: new Date(clock.now) });
    for (let crash = 1; crash <= 6; crash++) {
      expect(claimNext(opened.db, clock.now, { owner: await endedServer() })?.id).toBe(job.id);
      clock.now += 1;
      await runner(handlers, clock).recover();
      expect(findJob(opened.db, job.id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: crash });
    }
    expect(await runner(handlers, clock).drain()).toBe(1);
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'done', attempts: 1, interruptions: 6 });
  });

  it('gives up a job that takes the server down with it every time, saying why', async () => {
    const clock = { now: 10_000 };
    const gaveUp: [number, string][] = [];
    const handlers = {
      crash: {
        run: async () => undefined,
        giveUp: (payload: unknown, error: unknown) =>
          void gaveUp.push([(payload as { n: number }).n, (error as Error).message]),
      },
    };
    const job = enqueue(opened.db, 'crash', { n: 7 }, { runAt: new Date(clock.now) });
    const crashed = await endedServer();
    for (let crash = 1; crash <= MAX_INTERRUPTIONS; crash++) {
      expect(claimNext(opened.db, clock.now, { owner: crashed })?.id).toBe(job.id);
      clock.now += 1;
      await runner(handlers, clock).recover();
    }
    expect(findJob(opened.db, job.id)).toMatchObject({
      status: 'failed',
      interruptions: MAX_INTERRUPTIONS,
      attempts: 1,
      lastError: interruptedTooOftenMessage,
    });
    expect(interruptedTooOftenMessage).toMatch(/^interrupted 20 times/);
    expect(gaveUp).toEqual([[7, interruptedTooOftenMessage]]);
  });

  it('queues a job cut short by a shutdown again, without using an attempt', async () => {
    const clock = { now: 10_000 };
    let release: (() => void) | undefined;
    const handlers = {
      long: {
        // Stands for ffmpeg killed by the shutdown: the job fails once it is interrupted.
        run: () => new Promise<void>((_resolve, reject) => (release = () => reject(new Error('killed')))),
      },
    };
    const job = enqueue(opened.db, 'long', {}, { runAt: new Date(clock.now), maxAttempts: 1 });
    const jobs = runner(handlers, clock);
    await jobs.start();
    await expect.poll(() => release).toBeDefined();
    jobs.interrupt();
    release!();
    await jobs.stop();
    expect(findJob(opened.db, job.id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: 1 });
  });

  it('runs at most `workers` jobs at once', async () => {
    const clock = { now: Date.now() };
    let running = 0;
    let peak = 0;
    let finished = 0;
    const jobs = runner(
      {
        slow: {
          run: async () => {
            running++;
            peak = Math.max(peak, running);
            await new Promise((resolve) => setTimeout(resolve, 30));
            running--;
            finished++;
          },
        },
      },
      clock,
      [{ workers: 2 }],
    );
    for (let i = 0; i < 6; i++) enqueue(opened.db, 'slow', { i }, { runAt: new Date(clock.now) });
    await jobs.start();
    await expect.poll(() => finished, { timeout: 5000 }).toBe(6);
    await jobs.stop();
    expect(peak).toBe(2);
  });

  it("runs a lane's jobs on its own workers while every worker of the other lane is busy", async () => {
    const clock = { now: Date.now() };
    const held: (() => void)[] = [];
    const sent: number[] = [];
    const jobs = runner(
      {
        // Stands for a long transcode: holds its worker until released.
        transcode: { run: () => new Promise<void>((resolve) => void held.push(resolve)) },
        receipt: { run: async (payload) => void sent.push((payload as { n: number }).n) },
      },
      clock,
      [{ kinds: ['receipt'], workers: 1 }, { workers: 2 }],
    );
    for (let i = 0; i < 3; i++) enqueue(opened.db, 'transcode', { i }, { runAt: new Date(clock.now - 1000) });
    enqueue(opened.db, 'receipt', { n: 1 }, { runAt: new Date(clock.now) });
    await jobs.start();
    try {
      await expect.poll(() => sent).toEqual([1]);
      expect(held).toHaveLength(2);
      // A receipt queued while both transcoding workers are held runs too, and the transcoding
      // lane never takes one: its third job waits for a worker of its own.
      enqueue(opened.db, 'receipt', { n: 2 }, { runAt: new Date(clock.now) });
      jobs.wake();
      await expect.poll(() => sent).toEqual([1, 2]);
      expect(held).toHaveLength(2);
      held.shift()!();
      await expect.poll(() => held.length).toBe(2);
    } finally {
      for (const release of held.splice(0)) release();
      await jobs.stop();
    }
  });
});
