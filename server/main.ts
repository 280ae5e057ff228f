import cluster from 'node:cluster';
import { composeDeps, composeJobs } from './compose';
import { loadConfig } from './config';
import { runPrimary } from './start/cluster';
import { keepTidy, prepareSite, startBanner } from './start/prepare';
import { serveSite } from './start/serve';
import { keepTickShapes } from './start/steady-ticks';

// Start-up: config → database and migrations → admin and demo content → listen. With
// WEB_CONCURRENCY above 1 the process started does the first steps and starts that many server
// processes on its port (start/cluster.ts), each of which comes back here to serve.

// First, before a quiet spell can make V8 forget the shape of Node's tick objects (steady-ticks.ts).
keepTickShapes();

const config = loadConfig();

if (config.webConcurrency === 1) {
  const site = await prepareSite(config);
  await site.jobs.start();
  keepTidy(site.deps);
  serveSite(site, (port) => console.log(startBanner(config, port, site.demoAdmin)));
} else if (cluster.isPrimary) {
  await runPrimary(config);
} else {
  // The primary has migrated the database and cleared what a crash left: this one serves, and
  // takes jobs beside the others (each claim is one process's: server/infra/jobs/queue.ts).
  const { deps, sqlite, processes } = composeDeps(config, {}, { migrate: false });
  const jobs = composeJobs(deps, processes);
  await jobs.start();
  serveSite({ deps, sqlite, jobs }, () => undefined);
}
