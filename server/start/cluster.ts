import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config';
import { clearUploadsOfEndedServers } from '../features/uploads/service';
import { answerScrapes } from '../infra/metrics';
import { serverEntry } from '../paths';
import { keepTidy, prepareSite, startBanner } from './prepare';

// WEB_CONCURRENCY=N (DESIGN.md, several processes): this process prepares the site once (the
// migrations, crash leftovers, the admin, the demo), then starts N server processes that share
// its port (node:cluster hands each new connection to the next one) and the SQLite file. It
// serves nothing itself; it keeps the house (keepTidy), starts a process again when one dies,
// after taking up what the dead one left (its ffmpeg ended, its jobs queued again), and stops
// them all on SIGINT or SIGTERM.

/** A process that keeps dying waits longer each time before the next: 1 s, 2 s, 4 s … 1 min. */
const restartDelayMs = (recentDeaths: number) =>
  recentDeaths <= 1 ? 0 : Math.min(1000 * 2 ** (recentDeaths - 2), 60_000);

/** How long a dead server's leftovers may take to be taken up before its replacement starts anyway. */
const TAKE_UP_WAIT_MS = 15_000;

/** How long the servers get to finish what they are doing when stopped, before they are killed. */
const STOP_GRACE_MS = 10_000;

export async function runPrimary(config: Config) {
  const site = await prepareSite(config);
  const { logger } = site.deps;
  keepTidy(site.deps);
  if (site.deps.metrics.enabled) answerScrapes(site.deps.metrics);

  // The servers run the server's own entry (not `npm start`'s launcher) with this process's flags.
  cluster.setupPrimary({ exec: serverEntry('main', 'server/main.ts').file });
  const workers = new Set<Worker>();
  const deaths: number[] = [];
  let listening = 0;
  let stopping = false;

  /** Each server's slot, 0 … N-1, which its replacement takes over (its metrics' `server` label). */
  const slots = new Map<Worker, number>();
  const startOne = (slot: number) => {
    if (stopping) return;
    const worker = cluster.fork({ SERVER_SLOT: String(slot) });
    slots.set(worker, slot);
    workers.add(worker);
    worker.once('listening', (address) => {
      listening++;
      if (listening === config.webConcurrency) console.log(startBanner(config, address.port, site.demoAdmin));
    });
  };

  cluster.on('exit', (worker, code, signal) => {
    workers.delete(worker);
    const slot = slots.get(worker) ?? 0;
    slots.delete(worker);
    if (stopping) return;
    if (listening === 0) {
      // Not one server has listened yet: the start-up itself fails (a port in use, a bad setting),
      // and would fail again. The site stops, as one process would, for systemd to report.
      logger.fatal({ serverPid: worker.process.pid, code, signal }, 'a server process ended before it could listen');
      stopping = true;
      for (const other of workers) other.process.kill('SIGKILL');
      site.sqlite.close();
      process.exit(1);
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! < now - 60_000) deaths.shift();
    const delay = restartDelayMs(deaths.length);
    logger.error(
      { serverPid: worker.process.pid, code, signal, restartInMs: delay },
      'a server process ended; starting another',
    );
    // What it left is taken up before anything runs in its place: its ffmpeg ended, its half-written
    // files removed, its jobs queued again (they are taken by whichever server claims them next).
    const takeUp = (step: () => Promise<unknown>) =>
      step().catch((error: unknown) => logger.error({ err: error }, 'taking up what a server process left failed'));
    const tookUp = takeUp(() => site.jobs.recover()).then(() => takeUp(() => clearUploadsOfEndedServers(site.deps)));
    // The site must not stay a server short behind a take-up that hangs (a child that will not
    // die, a disk that does not answer): past a while the new server starts anyway. That is safe:
    // a job is queued again only once its old run is ended, and a server takes up the same
    // leftovers itself as it starts.
    let waited: NodeJS.Timeout | undefined;
    const tooLong = new Promise<void>((resolve) => {
      waited = setTimeout(() => {
        logger.warn(
          { waitedMs: TAKE_UP_WAIT_MS },
          'taking up what a server process left is slow; starting another meanwhile',
        );
        resolve();
      }, TAKE_UP_WAIT_MS);
    });
    void Promise.race([tookUp, tooLong])
      .finally(() => clearTimeout(waited))
      // Not unref'd: with every server down, this timer is what keeps the primary alive to start one.
      .finally(() => setTimeout(() => startOne(slot), delay));
  });

  for (let slot = 0; slot < config.webConcurrency; slot++) startOne(slot);

  function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, processes: workers.size }, 'shutting down the server processes');
    const allEnded = new Promise<void>((resolve) => {
      if (workers.size === 0) resolve();
      cluster.on('exit', () => workers.size === 0 && resolve());
    });
    for (const worker of workers) worker.process.kill('SIGTERM');
    const killTimer = setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, STOP_GRACE_MS);
    void allEnded.then(() => {
      clearTimeout(killTimer);
      site.sqlite.close();
      process.exit(0);
    });
  }
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
