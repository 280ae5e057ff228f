import { serve } from '@hono/node-server';
import { fetchForNode } from './http/node-response';
import { createApp } from './app';
import { composeDeps, composeJobs } from './compose';
import { ffmpegVersion } from './infra/audio/ffmpeg';
import { loadConfig } from './config';
import { fork } from 'node:child_process';
import type { DemoAdmin } from './demo/seed';
import { serverEntry } from './paths';
import { ensureAdmin } from './features/accounts/service';
import { cleanupUnusedUploads, removeCrashLeftovers } from './features/uploads/service';
import { pruneExpiredSessions } from './infra/security/session-store';
import { pruneThrottleEvents } from './infra/security/throttle';
import { pruneFinishedJobs } from './infra/jobs/queue';

// Start-up: config → database and migrations → admin and demo content → listen.

const config = loadConfig();
const { deps, sqlite, ffmpeg, processes } = composeDeps(config);
const { db, logger, media } = deps;
logger.info(
  {
    ffmpeg: ffmpeg.path,
    source: ffmpeg.source,
    version: ffmpegVersion(ffmpeg.path),
    diesWithServer: deps.ffmpeg.diesWithServer,
  },
  'ffmpeg for tracks',
);
// Track processing and receipts run in the background (issue 5, issue 22). What a crashed run
// left is dealt with first, before anything else touches media: its ffmpeg processes ended and
// their half-written files removed, then its jobs queued again.
const jobs = composeJobs(deps, processes);
await jobs.recover();

if (config.admin) {
  const result = await ensureAdmin({ db }, config.admin.email, config.admin.password);
  if (result.created) logger.info({ email: config.admin.email }, 'created the admin from ADMIN_EMAIL');
  if (result.promoted) logger.info({ email: config.admin.email }, 'promoted ADMIN_EMAIL to admin');
}
const demoAdmin = config.seedDemo ? await seedDemo() : undefined;
// Before any job runs or any request comes: what a crash left half-written can only be debris.
await removeCrashLeftovers({ db, logger, media });

/** Seeds the demo content in a process of its own (demo/seed-process.ts says why); its admin's login. */
function seedDemo(): Promise<DemoAdmin> {
  const { file, execArgv } = serverEntry('seed-demo', 'server/demo/seed-process.ts');
  const child = fork(file, [], { execArgv, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    let admin: DemoAdmin | undefined;
    child.on('message', (message: DemoAdmin) => (admin = message));
    child.on('error', reject);
    child.on('exit', (code) =>
      admin && code === 0 ? resolve(admin) : reject(new Error(`seeding the demo content failed (exit code ${code})`)),
    );
  });
}

await jobs.start();

// Housekeeping, at start and every ten minutes: unused uploads go once an hour old (issue 9).
function maintain() {
  pruneExpiredSessions(db);
  pruneThrottleEvents(db);
  pruneFinishedJobs(db, new Date(Date.now() - 7 * 24 * 60 * 60 * 1000));
  cleanupUnusedUploads({ db, logger, media }).catch((error: unknown) =>
    logger.error({ err: error }, 'upload cleanup failed'),
  );
}
maintain();
setInterval(maintain, 10 * 60 * 1000).unref();

const app = createApp(deps);
const server = serve(
  {
    fetch: fetchForNode(app),
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
  // Jobs cut short here are interrupted, not failed: they run again at the next start.
  jobs.interrupt();
  deps.ffmpeg.killAll();
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
