// Run by `npm test` before the browser tests: makes sure Debian's/Ubuntu's Chromium is there,
// installing it with apt-get (as root, or through sudo) when it is missing. CHROMIUM_PATH points
// the tests at another Chromium instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const target = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(target)) process.exit(0);

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
if (process.env.CHROMIUM_PATH || !has('apt-get')) {
  console.error(
    `Chromium was not found at ${target}. Install Chromium and set CHROMIUM_PATH to its executable to run the browser tests.`,
  );
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
if (!isRoot && !has('sudo')) {
  console.error('The browser tests need Chromium: run `apt-get install -y chromium` as root, then `npm test` again.');
  process.exit(1);
}
const apt = (...args) => {
  const [command, commandArgs] = isRoot ? ['apt-get', args] : ['sudo', ['apt-get', ...args]];
  const result = spawnSync(command, commandArgs, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
console.log('Installing Chromium for the browser tests (apt-get install chromium)...');
apt('update', '-qq');
apt('install', '-y', '-qq', 'chromium');
