import type { Db } from '../../db/client';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { formatIdentity, thisProcess } from '../processes/identity';
import type { ProcessRegistry } from '../processes/registry';
import {
  claimNext,
  completeJob,
  defaultBackoffMs,
  failJob,
  interruptedTooOftenMessage,
  type JobRow,
  type KindFilter,
  nextRunAt,
  recoverAbandoned,
  requeueInterrupted,
} from './queue';

/** A failure that another attempt cannot fix (e.g. a silent recording): no retries. */
export class PermanentJobError extends Error {}

export type JobHandler = {
  run: (payload: unknown, job: JobRow) => Promise<void>;
  /** Called once when the job has failed for good, to leave its records in a clear state. */
  giveUp?: (payload: unknown, error: unknown, job: JobRow) => void | Promise<void>;
};

/**
 * Workers of their own for some kinds of job, so that those never wait behind the others (a
 * donation's receipt behind an album's transcodes). One lane has no `kinds`: it takes every kind
 * the other lanes do not list.
 */
export type JobLane = { workers: number; kinds?: readonly string[] };

export type JobRunnerOptions = {
  db: Db;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  lanes: JobLane[];
  /**
   * The child processes jobs start (ffmpeg): those a dead server left are ended before its jobs
   * are taken up again, so a job never runs beside its own previous run.
   */
  processes?: ProcessRegistry;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /** Counts each job's end (GET /metrics). */
  metrics?: Pick<Metrics, 'jobEnded'>;
  /** The clock, injectable for tests of the backoff. */
  now?: () => number;
  backoffMs?: (attempt: number) => number;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

function parsePayload(job: JobRow): unknown {
  return JSON.parse(job.payload);
}

/** For last_error: the message, and the cause when it says more (e.g. ffmpeg's own words). */
function describe(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  return typeof error.cause === 'string' && error.cause ? `${error.message} (${error.cause})` : error.message;
}

/** Each lane with the kinds it claims (the lane without a list: what the others do not) and its runs. */
function withFilters(lanes: JobLane[]) {
  if (lanes.filter((lane) => !lane.kinds).length !== 1) {
    throw new Error('exactly one job lane must take the kinds no other lane lists');
  }
  const listed = lanes.flatMap((lane) => lane.kinds ?? []);
  return lanes.map((lane) => ({
    workers: lane.workers,
    kinds: (lane.kinds ? { only: lane.kinds } : { except: listed }) satisfies KindFilter,
    inFlight: new Set<Promise<void>>(),
  }));
}

export function createJobRunner(options: JobRunnerOptions) {
  const { db, logger, handlers, processes } = options;
  const pollMs = options.pollMs ?? 1000;
  const now = options.now ?? Date.now;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  /** Written on each claim: a job is taken up again only once this process has ended. */
  const owner = formatIdentity(thisProcess());
  const lanes = withFilters(options.lanes);
  const inFlight = new Set<Promise<void>>();
  let started = false;
  /** The server is stopping: a job that fails now was cut short, not wrong (see interrupt). */
  let interrupted = false;
  let timer: NodeJS.Timeout | undefined;

  async function giveUp(job: JobRow, error: unknown) {
    try {
      await handlers[job.kind]?.giveUp?.(parsePayload(job), error, job);
    } catch (cleanupError) {
      logger.error({ err: cleanupError, jobId: job.id, kind: job.kind }, 'job give-up handler failed');
    }
  }

  async function runJob(job: JobRow) {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind '${job.kind}'`);
      await handler.run(parsePayload(job), job);
      completeJob(db, job.id, now());
      options.metrics?.jobEnded(job.kind, 'done');
    } catch (error) {
      if (interrupted) {
        const outcome = requeueInterrupted(db, job, now());
        logger.info({ jobId: job.id, kind: job.kind, outcome }, 'job interrupted by shutdown');
        options.metrics?.jobEnded(job.kind, outcome === 'failed' ? 'failed' : 'interrupted');
        if (outcome === 'failed') await giveUp(job, error);
        return;
      }
      const retry = !(error instanceof PermanentJobError || error instanceof SyntaxError);
      const outcome = failJob(db, job, describe(error), now(), { retry, backoffMs });
      options.metrics?.jobEnded(job.kind, outcome);
      logger.warn({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts, outcome }, 'job failed');
      if (outcome === 'failed') await giveUp(job, error);
    }
  }

  /** Starts as many due jobs as each lane has free workers. */
  function fill() {
    if (!started) return;
    clearTimeout(timer);
    for (const lane of lanes) {
      while (lane.inFlight.size < lane.workers) {
        const job = claimNext(db, now(), { owner, kinds: lane.kinds });
        if (!job) break;
        const run: Promise<void> = runJob(job).finally(() => {
          lane.inFlight.delete(run);
          inFlight.delete(run);
          fill();
        });
        lane.inFlight.add(run);
        inFlight.add(run);
      }
    }
    timer = setTimeout(fill, pollMs);
    timer.unref();
  }

  /**
   * What servers that have ended left running: their processes ended and half-written files
   * removed first, then their jobs queued again (or given up after MAX_INTERRUPTIONS).
   */
  async function recover() {
    await processes?.endAbandoned();
    for (const job of recoverAbandoned(db, now())) await giveUp(job, new Error(interruptedTooOftenMessage));
  }

  return {
    async start() {
      if (started) return;
      await recover();
      started = true;
      fill();
    },
    /**
     * The server is stopping and will kill the jobs' processes (ffmpeg): stops taking jobs, and
     * the ones that fail from here on are queued again without using an attempt.
     */
    interrupt() {
      interrupted = true;
      started = false;
      clearTimeout(timer);
    },
    /** Stops taking jobs and waits for the running ones. */
    async stop() {
      started = false;
      clearTimeout(timer);
      await Promise.all([...inFlight]);
    },
    /** Looks for due jobs now (e.g. right after queueing some) instead of at the next poll. */
    wake: fill,
    recover,
    /** Runs one due job here and now; false when none was due. */
    async runOnce(options: { skipBackoff?: boolean } = {}) {
      const due = nextRunAt(db);
      const at = options.skipBackoff && due !== undefined ? Math.max(now(), due) : now();
      const job = claimNext(db, at, { owner });
      if (!job) return false;
      await runJob(job);
      return true;
    },
    /**
     * Runs jobs one by one until none is due. `skipBackoff` fast-forwards through retry delays,
     * so a test sees a job's last attempt without waiting minutes.
     */
    async drain(options: { skipBackoff?: boolean } = {}) {
      let count = 0;
      while (await this.runOnce(options)) count++;
      return count;
    },
  };
}
