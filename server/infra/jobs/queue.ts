import { and, asc, eq, inArray, lt, lte, min, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs } from '../../db/schema';
import { preparedQuery } from '../../db/prepared';
import { ownerIsGone } from '../processes/identity';

// A durable job queue in the SQLite file (DESIGN.md section 3, Media). A claim is one UPDATE …
// RETURNING: SQLite runs it whole, and no two workers (nor two server processes sharing the file)
// can take the same job. Writes here accept a transaction, so a job is queued together with the
// rows that need it (a track and its processing commit or roll back as one).
//
// A job that does not finish either failed (its handler threw: an attempt used, retried with
// backoff) or was interrupted (the server stopped or died under it: not the job's fault, so no
// attempt is used). Each claim records which server process took it; a running job is taken up
// again only once that process has ended (server/infra/processes/identity.ts).

export type JobRow = typeof jobs.$inferSelect;

/** A job is queued on a hot path (every fulfilment queues a receipt): built and prepared once. */
const insertJob = preparedQuery((db) =>
  db
    .insert(jobs)
    .values({
      kind: sql.placeholder('kind'),
      payload: sql.placeholder('payload'),
      runAt: sql.placeholder('runAt'),
      maxAttempts: sql.placeholder('maxAttempts'),
    })
    .returning()
    .prepare(),
);

/**
 * Queues a job of `kind`; its handler parses `payload` (JSON). Given the database itself (rather
 * than a transaction's handle) the statement is the one prepared for it, run on its connection:
 * in the transaction under way.
 */
export function enqueue(db: Db, kind: string, payload: unknown, options: { runAt?: Date; maxAttempts?: number } = {}) {
  return insertJob(db).get({
    kind,
    payload: JSON.stringify(payload),
    runAt: options.runAt ?? new Date(),
    maxAttempts: options.maxAttempts ?? 5,
  })!;
}

/** Which kinds of job a worker takes: the ones listed, or every kind but those (see runner.ts's lanes). */
export type KindFilter = { only: readonly string[] } | { except: readonly string[] };

function kindCondition(filter: KindFilter | undefined) {
  if (!filter) return undefined;
  if ('only' in filter) return inArray(jobs.kind, [...filter.only]);
  return filter.except.length ? notInArray(jobs.kind, [...filter.except]) : undefined;
}

/**
 * Takes the next due job (of `kinds`, when given): marks it running for `owner` (a process
 * identity as formatIdentity writes it) and counts the attempt.
 */
export function claimNext(
  db: Db,
  now: number,
  options: { owner?: string; kinds?: KindFilter } = {},
): JobRow | undefined {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), lte(jobs.runAt, new Date(now)), kindCondition(options.kinds)))
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(1);
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedAt: new Date(now),
      lockedBy: options.owner ?? null,
      updatedAt: new Date(now),
    })
    .where(and(eq(jobs.id, sql`(${due})`), eq(jobs.status, 'queued')))
    .returning()
    .get();
}

/** When the earliest queued job is due (for fast-forwarding), or undefined when none is queued. */
export function nextRunAt(db: Db): number | undefined {
  const row = db
    .select({ at: min(jobs.runAt) })
    .from(jobs)
    .where(eq(jobs.status, 'queued'))
    .get();
  return row?.at ? row.at.getTime() : undefined;
}

export function completeJob(db: Db, id: number, now: number) {
  db.update(jobs)
    .set({ status: 'done', lockedAt: null, lockedBy: null, lastError: null, updatedAt: new Date(now) })
    .where(eq(jobs.id, id))
    .run();
}

/** 30 s, 1 min, 2 min, 4 min … at most an hour: a busy disk or a killed ffmpeg gets time to pass. */
export const defaultBackoffMs = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 60 * 60 * 1000);

/**
 * Records a failed attempt: queued again after the backoff, or 'failed' for good once the attempts
 * are used up (or `retry` is false). Answers which.
 */
export function failJob(
  db: Db,
  job: Pick<JobRow, 'id' | 'attempts' | 'maxAttempts'>,
  error: string,
  now: number,
  options: { retry?: boolean; backoffMs?: (attempt: number) => number } = {},
): 'retrying' | 'failed' {
  const retry = (options.retry ?? true) && job.attempts < job.maxAttempts;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  db.update(jobs)
    .set({
      status: retry ? 'queued' : 'failed',
      runAt: retry ? new Date(now + backoff(job.attempts)) : undefined,
      lockedAt: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
      updatedAt: new Date(now),
    })
    .where(eq(jobs.id, job.id))
    .run();
  return retry ? 'retrying' : 'failed';
}

/**
 * How often a job may be cut short by the server stopping before it is given up. A crash or a
 * restart is not the job's fault, so it costs no attempt, and a busy site may be restarted (a
 * deploy, the OOM killer, a volunteer's kill -9) many times during one long album; but a job that
 * takes the server down with it every time (a decoder bug, memory) must not loop forever.
 */
export const MAX_INTERRUPTIONS = 20;

const interruptedMessage = 'interrupted (the server stopped while it ran); runs again without using an attempt';

/** Why a job was given up after MAX_INTERRUPTIONS (last_error, and the error its handler's giveUp gets). */
export const interruptedTooOftenMessage = `interrupted ${MAX_INTERRUPTIONS} times: the server stopped each time while it ran (it may be what brings the server down), so it is not tried again`;

/**
 * A running job the server's stop cut short: queued again to run at once, its attempt given back;
 * failed for good after MAX_INTERRUPTIONS. Answers which, or undefined when the job was no longer
 * running (another server took it up first).
 */
export function requeueInterrupted(
  db: Db,
  job: Pick<JobRow, 'id' | 'interruptions'>,
  now: number,
): 'requeued' | 'failed' | undefined {
  const interruptions = job.interruptions + 1;
  const giveUp = interruptions >= MAX_INTERRUPTIONS;
  const { changes } = db
    .update(jobs)
    .set({
      status: giveUp ? 'failed' : 'queued',
      attempts: giveUp ? undefined : sql`max(${jobs.attempts} - 1, 0)`,
      interruptions,
      runAt: giveUp ? undefined : new Date(now),
      lockedAt: null,
      lockedBy: null,
      lastError: giveUp ? interruptedTooOftenMessage : interruptedMessage,
      updatedAt: new Date(now),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')))
    .run();
  if (changes === 0) return undefined;
  return giveUp ? 'failed' : 'requeued';
}

/**
 * Jobs left running by a server process that has ended (a crash, a kill, a reboot): queued again
 * without using an attempt (requeueInterrupted). A job whose server still runs is its own, left
 * alone. Answers the ones given up, so their handlers can leave their records in a clear state.
 */
export function recoverAbandoned(db: Db, now: number): JobRow[] {
  // IMMEDIATE: another server starting at the same moment waits, instead of taking up the same jobs.
  return db.transaction(
    (tx) => {
      const givenUp: JobRow[] = [];
      for (const job of tx.select().from(jobs).where(eq(jobs.status, 'running')).all()) {
        if (ownerIsGone(job.lockedBy) && requeueInterrupted(tx, job, now) === 'failed') givenUp.push(job);
      }
      return givenUp;
    },
    { behavior: 'immediate' },
  );
}

/** Jobs waiting and running now, by kind (GET /metrics). */
export function jobQueueDepth(db: Db): { kind: string; status: string; count: number }[] {
  return db
    .select({ kind: jobs.kind, status: jobs.status, count: sql<number>`count(*)` })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
    .groupBy(jobs.kind, jobs.status)
    .all();
}

/** Finished jobs older than `before` are only history: removed. */
export function pruneFinishedJobs(db: Db, before: Date) {
  db.delete(jobs)
    .where(and(sql`${jobs.status} IN ('done', 'failed')`, lt(jobs.updatedAt, before)))
    .run();
}

export function findJob(db: Db, id: number) {
  return db.select().from(jobs).where(eq(jobs.id, id)).get();
}
