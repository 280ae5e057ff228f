import fs from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemoContent } from './db/seed';
import { ensureAdmin } from './features/accounts/service';
import { seedBundledCharities } from './features/charities/service';
import { everyOrgClient } from './infra/charity-directory/every-org';
import { type Mailer, outboxMailer, smtpMailer } from './infra/email/mailer';
import { createLogger } from './infra/logger';
import { mediaStore } from './infra/storage/media';
import { cleanupUnusedUploads } from './features/uploads/service';
import { pruneExpiredSessions } from './infra/security/session-store';
import { pruneThrottleEvents } from './infra/security/throttle';
import { trackJobHandlers } from './features/fundraisers/track-processing';
import { pruneFinishedJobs } from './infra/jobs/queue';
import { createJobRunner } from './infra/jobs/runner';

// Start-up: config → database and migrations → admin and demo content → listen.

const config = loadConfig();
const logger = createLogger(config.logLevel);
fs.mkdirSync(config.dataDir, { recursive: true });
const { db, sqlite } = openDatabase(config.databasePath);
const media = mediaStore(config.dataDir);
seedBundledCharities({ db });

const mailer: Mailer = config.smtpUrl
  ? smtpMailer(config.smtpUrl, config.mailFrom)
  : outboxMailer(config.outboxDir, config.mailFrom, logger);

if (config.admin) {
  const result = await ensureAdmin({ db }, config.admin.email, config.admin.password);
  if (result.created) logger.info({ email: config.admin.email }, 'created the admin from ADMIN_EMAIL');
  if (result.promoted) logger.info({ email: config.admin.email }, 'promoted ADMIN_EMAIL to admin');
}
const demoAdmin = config.seedDemo ? await seedDemoContent(db, config, media) : undefined;

// Track processing runs in the background (issue 5); jobs a crash left running are taken up again.
const jobs = createJobRunner({
  db,
  logger,
  handlers: trackJobHandlers({ db, logger, media }),
  workers: config.jobWorkers,
});
await jobs.start();

const maintenance = setInterval(
  () => {
    pruneExpiredSessions(db);
    pruneThrottleEvents(db);
    pruneFinishedJobs(db, new Date(Date.now() - 7 * 24 * 60 * 60 * 1000));
    cleanupUnusedUploads({ db, logger, media }).catch((error: unknown) =>
      logger.error({ err: error }, 'upload cleanup failed'),
    );
  },
  60 * 60 * 1000,
);
maintenance.unref();

const everyOrg = config.everyOrg ? everyOrgClient(config.everyOrg) : null;
const app = createApp({ config, db, mailer, logger, media, everyOrg });
const server = serve(
  {
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    // A 100 MB image or a long album zip over a slow uplink takes longer than Node's default 5 min.
    serverOptions: { requestTimeout: 60 * 60 * 1000 },
  },
  (info) => {
    const url = config.publicUrl ?? `http://localhost:${info.port}`;
    const lines = [
      '',
      `  ${config.siteName} is running at ${url}`,
      `  data: ${config.dataDir}`,
      config.smtpUrl ? '  email: sent over SMTP' : `  email: written to ${config.outboxDir} (no SMTP_URL set)`,
    ];
    if (demoAdmin) lines.push(`  demo admin: ${demoAdmin.email} / ${demoAdmin.password}`);
    console.log(lines.join('\n') + '\n');
  },
);

function shutdown(signal: string) {
  logger.info({ signal }, 'shutting down');
  server.close(() => {
    // A job cut short here is taken up again at the next start.
    void jobs.stop().finally(() => {
      sqlite.close();
      process.exit(0);
    });
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
