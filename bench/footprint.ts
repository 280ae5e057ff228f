import fs from 'node:fs';
import path from 'node:path';
import {
  alone,
  compiledServer,
  freePort,
  jobsSettled,
  processTree,
  settledValue,
  startProcess,
  tempDataDir,
  treeRssMb,
} from './processes';

/**
 * Issue 13's footprint on a small VM: the idle RSS of the whole process tree of the production
 * server (`node dist-server/main.js`, one process) after the demo is seeded, its tracks processed
 * and the image worker gone (it ends 10 s after its last image), and again after a restart on
 * the seeded data; `npm start`'s tree (npm itself and the
 * launcher, which runs the server in its own process); next to a bare node process doing nothing.
 */
/**
 * The tree's RSS once idle: V8 gives back the heap a busy spell grew some seconds after the work
 * ends (its memory reducer), so idle means after IDLE_MS with nothing to do.
 */
const IDLE_MS = 30_000;
async function idleRss(pid: number) {
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return settledValue(() => treeRssMb(pid));
}

export async function benchFootprint() {
  const compiled = await compiledServer();
  // With the server's own variables (its malloc arenas), so that the two differ by the server alone.
  const bare = await startProcess(
    process.execPath,
    ['-e', 'console.log("running at http://x");setInterval(()=>{},1e9)'],
    compiled.env,
  );
  const bareMb = await settledValue(() => treeRssMb(bare.pid));
  await bare.stop();

  const dataDir = tempDataDir();
  const env = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    // The client is served when built; the footprint is the server's either way.
    CLIENT_DIST_DIR: path.resolve('dist'),
  };
  const row = (name: string, mb: number, note = '') =>
    console.log(
      `${name.padEnd(58)} ${mb.toFixed(0).padStart(4)} MB  (${(mb / bareMb).toFixed(1)}× bare node)${note ? `  ${note}` : ''}`,
    );
  console.log(
    `\nFootprint: idle RSS of the whole process tree (VmRSS of the process and its descendants), ${IDLE_MS / 1000} s idle`,
  );
  row('baseline: bare node, setInterval only', bareMb);

  const first = await startProcess(process.execPath, compiled.args, {
    ...compiled.env,
    ...env,
    PORT: String(await freePort()),
  });
  await jobsSettled(dataDir);
  await alone(first.pid);
  const seeded = await idleRss(first.pid);
  row('node dist-server/main.js, first start: demo seeded, tracks done', seeded);
  await first.stop();

  const second = await startProcess(process.execPath, compiled.args, {
    ...compiled.env,
    ...env,
    PORT: String(await freePort()),
  });
  await jobsSettled(dataDir);
  await alone(second.pid);
  row('node dist-server/main.js, restarted on the seeded data', await idleRss(second.pid));
  await second.stop();

  // `npm start` builds what is out of date (nothing, after the build above and a client build).
  const npm = await startProcess('npm', ['start'], { ...env, PORT: String(await freePort()) });
  const npmMb = await idleRss(npm.pid);
  const names = processTree(npm.pid)
    .filter((each) => each.rssKb > 0)
    .map((each) => `${each.name} ${(each.rssKb / 1024).toFixed(0)}`)
    .join(' + ');
  row('npm start (restarted on the seeded data)', npmMb, names);
  await npm.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
