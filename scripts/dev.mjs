// `npm run dev`: the API server with reload on change, and Vite's dev server (with hot reload)
// proxying /api to it. Open the Vite URL it prints. The rules of the pages the server draws before
// their app starts are picked again from the client's stylesheets whenever one changes
// (scripts/first-view-css.ts), and the server reloads with them.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
  spawn(bin('tsx'), ['watch', '--clear-screen=false', '--include', 'client/**/*.css', 'scripts/first-view-css.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
