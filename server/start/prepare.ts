import { fork } from 'node:child_process';
import type { Config } from '../config';
import { composeDeps, composeJobs } from '../compose';
import type { DemoAdmin } from '../demo/seed';
import { ensureAdmin } from '../features/accounts/service';
import { cleanupUnusedUploads, removeCrashLeftovers } from '../features/uploads/service';
import { ffmpegVersion } from '../infra/audio/ffmpeg';
import { pruneFinishedJobs } from '../infra/jobs/queue';
import { claimMediaBucket } from '../infra/storage/bucket-claim';
import { pruneExpiredSessions } from '../infra/security/session-store';
import { pruneThrottleEvents } from '../infra/security/throttle';
import { serverEntry } from '../paths';
import type { Deps } from '../deps';

// What happens once per start, before any request is served: in the one server process, or in
// the primary of several (server/start/cluster.ts) before it starts them.

/**
 * The database migrated, what a crashed run left cleared away, the admin and the demo content in
 * place. Answers the parts and the demo admin's login (when the demo was seeded).
 */
export async function prepareSite(config: Config) {
  const composed = composeDeps(config);
  const { deps, ffmpeg, processes } = composed;
  const { db, logger } = deps;
  // Before anything is written to or removed from a bucket: it must be this site's (bucket-claim.ts).
  await claimMediaBucket(db, deps.media.objects);
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
  await removeCrashLeftovers(deps);
  return { ...composed, jobs, demoAdmin };
}

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

/** Housekeeping, at start and every ten minutes, in one process: unused uploads go once an hour old (issue 9). */
export function keepTidy(deps: Pick<Deps, 'db' | 'logger' | 'media'>) {
  const { db, logger } = deps;
  const maintain = () => {
    pruneExpiredSessions(db);
    pruneThrottleEvents(db);
    pruneFinishedJobs(db, new Date(Date.now() - 7 * 24 * 60 * 60 * 1000));
    cleanupUnusedUploads(deps).catch((error: unknown) => logger.error({ err: error }, 'upload cleanup failed'));
  };
  maintain();
  setInterval(maintain, 10 * 60 * 1000).unref();
}

/** What the terminal shows once the site answers. */
export function startBanner(config: Config, port: number, demoAdmin: DemoAdmin | undefined) {
  const url = config.publicUrl ?? `http://localhost:${port}`;
  const lines = [
    '',
    `  ${config.siteName} is running at ${url}`,
    `  data: ${config.dataDir}`,
    config.smtpUrl ? '  email: sent over SMTP' : `  email: written to ${config.outboxDir} (no SMTP_URL set)`,
  ];
  if (config.media.bucket) lines.push(`  media: in the bucket ${config.media.bucket} (MEDIA_STORE=s3)`);
  if (config.webConcurrency > 1) lines.push(`  processes: ${config.webConcurrency} (WEB_CONCURRENCY)`);
  if (demoAdmin) lines.push(`  demo admin: ${demoAdmin.email} / ${demoAdmin.password}`);
  return lines.join('\n') + '\n';
}
