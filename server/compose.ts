import fs from 'node:fs';
import { sharedRevocations, streamGrants } from './access/stream-grants';
import { urlGrants } from './access/url-grants';
import type { Config } from './config';
import { openDatabase } from './db/client';
import type { Deps } from './deps';
import { seedBundledCharities } from './features/charities/service';
import { donationJobHandlers } from './features/donations/jobs';
import { givingJobHandlers } from './features/giving/jobs';
import { trackJobHandlers } from './features/fundraisers/track-processing';
import { chooseFfmpeg, ffmpegRunner } from './infra/audio/ffmpeg';
import { everyOrgClient } from './infra/charity-directory/every-org';
import { outboxMailer, smtpMailer } from './infra/email/mailer';
import { createJobRunner } from './infra/jobs/runner';
import { TRANSCODE_JOB } from './infra/transcodes/cache';
import { transcodeJobHandlers } from './infra/transcodes/job';
import { jobQueueDepth } from './infra/jobs/queue';
import { createLogger } from './infra/logger';
import { createMetrics } from './infra/metrics';
import { stripeProvider } from './infra/payments/stripe-provider';
import { testProvider } from './infra/payments/test-provider';
import { processRegistry, type ProcessRegistry } from './infra/processes/registry';
import { loadOrCreateKey } from './infra/security/secret-key';
import { configuredMediaStore } from './infra/storage/media';
import { uploadReservations } from './infra/storage/upload-reservations';

/**
 * The real parts for a configuration (DESIGN.md section 2), wired once: the SQLite file with its
 * migrations applied, media on disk, the mailer (SMTP or the outbox), the charity directory. The
 * server's start-up and the tests' servers build the same thing here.
 */
export function composeDeps(
  config: Config,
  overrides: Partial<Pick<Deps, 'afterResponse'>> = {},
  options: { migrate?: boolean } = {},
) {
  const logger = createLogger(config.logLevel);
  const metrics = createMetrics(config.metricsToken !== undefined);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const { db, sqlite } = openDatabase(config.databasePath, {
    sharedByServers: config.webConcurrency > 1,
    migrate: options.migrate,
    onWriteLockWait: config.metricsToken === undefined ? undefined : metrics.writeLockWaited,
  });
  metrics.watchJobQueue(() => jobQueueDepth(db));
  seedBundledCharities({ db });
  const ffmpeg = chooseFfmpeg(config.ffmpegPath);
  const processes = processRegistry(db, { root: config.dataDir, logger });
  const deps: Deps = {
    config,
    db,
    logger,
    metrics,
    media: configuredMediaStore(config),
    uploadsInFlight: uploadReservations(db),
    streamGrants: streamGrants({ revocations: sharedRevocations(db) }),
    urlGrants: urlGrants(loadOrCreateKey(config.urlGrantKeyFile)),
    mailer: config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(config.outboxDir, config.mailFrom, logger),
    everyOrg: config.everyOrg ? everyOrgClient(config.everyOrg) : null,
    payments: config.stripe ? stripeProvider(config.stripe) : testProvider(db),
    ffmpeg: ffmpegRunner(ffmpeg.path, processes),
    afterResponse: (task) =>
      setImmediate(() => {
        Promise.resolve()
          .then(task)
          .catch((error: unknown) => logger.error({ err: error }, 'work after a response failed'));
      }),
    ...overrides,
  };
  return { deps, sqlite, ffmpeg, processes };
}

/**
 * Money jobs wait on the network (SMTP, Stripe), not on a core: two at once cost nothing, and a
 * mail server slow to answer one receipt does not hold up the next.
 */
const MONEY_JOB_WORKERS = 2;

/**
 * The background jobs (DESIGN.md section 3, Media; the outbox of receipts), in three lanes with
 * workers of their own: receipts and fees never wait behind an album's transcodes (issue 22),
 * track processing keeps JOB_WORKERS (ffmpeg takes a core each), and fans' download formats have
 * one of their own (issue 27). Not started: the server starts
 * it, tests start it or drain it.
 */
export function composeJobs(deps: Deps, processes: ProcessRegistry, options: { pollMs?: number } = {}) {
  // Receipts, fees, and the giving history's receipt copies and year-end statements.
  const money = { ...donationJobHandlers(deps), ...givingJobHandlers(deps) };
  return createJobRunner({
    db: deps.db,
    logger: deps.logger,
    handlers: { ...trackJobHandlers(deps), ...transcodeJobHandlers(deps), ...money },
    lanes: [
      { kinds: Object.keys(money), workers: MONEY_JOB_WORKERS },
      // A fan's download or Data saver file never waits behind an artist's uploads (issue 27).
      { kinds: [TRANSCODE_JOB], workers: 1 },
      { workers: deps.config.jobWorkers },
    ],
    processes,
    pollMs: options.pollMs,
    metrics: deps.metrics,
  });
}
