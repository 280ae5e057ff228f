import { serve } from '@hono/node-server';
import type Database from 'better-sqlite3';
import { createApp } from '../app';
import type { Deps } from '../deps';
import { fetchForNode } from '../http/node-response';
import type { JobRunner } from '../infra/jobs/runner';

/**
 * Serves the site on the configured port (in a cluster, the port the primary shares) until
 * SIGINT or SIGTERM, then stops cleanly: no new jobs, running ones left to the next start.
 */
export function serveSite(
  site: { deps: Deps; sqlite: Database.Database; jobs: JobRunner },
  onListening: (port: number) => void,
) {
  const { deps, sqlite, jobs } = site;
  const { config, logger } = deps;
  const server = serve(
    {
      fetch: fetchForNode(createApp(deps)),
      port: config.port,
      hostname: config.host,
      // A 100 MB image or a long album zip over a slow uplink takes longer than Node's default 5 min.
      serverOptions: { requestTimeout: 60 * 60 * 1000 },
    },
    (info) => onListening(info.port),
  );

  let stopping = false;
  function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
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
}
