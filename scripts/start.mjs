// `npm start`: builds the client and the server when missing or older than their sources, then
// runs the compiled server in this very process (which creates DATA_DIR, applies migrations and
// seeds demo content on first start). One node process serves, beside npm's own (issue 13): the
// builds run as children that have ended by then, and nothing here stays loaded but the server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const clientSources = ['client', 'shared', 'public', 'vite.config.ts', 'package-lock.json'];
// What the compiled server is made of, the client's stylesheets included: the rules of the pages
// drawn before their app starts are picked from them (scripts/first-view-css.ts).
const serverSources = [
  'server',
  'shared',
  'client',
  'package-lock.json',
  'scripts/build-server.mjs',
  'scripts/first-view-css.ts',
];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const outOfDate = (file, sources) => builtAt(file) < Math.max(...sources.map(newestMtime));

function run(command, args) {
  // Always a production build, whatever NODE_ENV the server runs with: under NODE_ENV=development
  // Vite would build React's development bundle, without the service worker's registration.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (outOfDate(path.join(root, 'dist', 'index.html'), clientSources)) {
  console.log('Building the client...');
  run(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn']);
  // The .br/.gz copies the server sends to browsers that accept them, as `npm run build` makes.
  run(process.execPath, [path.join(root, 'scripts/precompress.mjs'), path.join(root, 'dist')]);
}
const serverMain = path.join(root, 'dist-server', 'main.js');
if (outOfDate(serverMain, serverSources)) {
  console.log('Building the server...');
  // The rules of the pages drawn before their app starts, picked again from the client's stylesheets.
  run(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'scripts/first-view-css.ts')]);
  run(process.execPath, [path.join(root, 'scripts/build-server.mjs')]);
}

// The server's own start-up reads the environment, listens and handles SIGINT/SIGTERM.
await import(pathToFileURL(serverMain).href);
