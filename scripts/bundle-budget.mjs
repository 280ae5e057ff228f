// Issue 13, first load: the gzipped JavaScript a landing page needs before it can show its
// content — the entry with everything it imports, plus the page's own chunks (page-chunks.json,
// written by scripts/page-chunks-plugin.ts) — must stay within the budget on the pages visitors
// arrive on. `npm run build` runs this and fails when one grows past it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const BUDGET_KB = 130;

/** The routes the budget holds for: /, /browse and /projects/{slug} (shared/routes.ts names). */
export const BUDGETED_PAGES = ['home', 'browse', 'fundraiser'];

/** The embedded player's script (issue 28), which other sites' pages load in a frame. */
export const EMBED_BUDGET_KB = 40;

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const gzippedBytes = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** An entry's file and every file it imports statically (index.html's: what the app loads first). */
function entryFiles(dist, entry = 'index.html') {
  const manifest = readJson(path.join(dist, '.vite', 'manifest.json'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  if (!manifest[entry]) throw new Error(`The build's manifest has no entry ${entry}`);
  visit(entry);
  return files;
}

const gzippedJsKb = (dist, files) =>
  [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((bytes, file) => bytes + gzippedBytes(path.join(dist, file)), 0) / 1024;

/** The gzipped kilobytes of the embedded player's JavaScript, all of it. */
export function embedKb(dist) {
  return gzippedJsKb(dist, entryFiles(dist, 'embed/main.ts'));
}

/** The gzipped kilobytes of JavaScript `page` needs before its content is drawn. */
export function criticalPathKb(dist, page) {
  const pages = readJson(path.join(dist, 'page-chunks.json'));
  if (!pages[page]) throw new Error(`page-chunks.json has no page called ${page}`);
  return gzippedJsKb(dist, new Set([...entryFiles(dist), ...pages[page].js]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  let over = false;
  for (const page of BUDGETED_PAGES) {
    const kb = criticalPathKb(dist, page);
    over ||= kb > BUDGET_KB;
    console.log(
      `${kb > BUDGET_KB ? 'OVER' : 'ok  '} ${page.padEnd(10)} ${kb.toFixed(1).padStart(6)} KB of ${BUDGET_KB} KB gzipped JavaScript`,
    );
  }
  const embed = embedKb(dist);
  console.log(
    `${embed > EMBED_BUDGET_KB ? 'OVER' : 'ok  '} ${'embed'.padEnd(10)} ${embed.toFixed(1).padStart(6)} KB of ${EMBED_BUDGET_KB} KB gzipped JavaScript`,
  );
  if (over) {
    console.error(`A landing page needs more than ${BUDGET_KB} KB of JavaScript before its content (issue 13).`);
  }
  if (embed > EMBED_BUDGET_KB) {
    console.error(`The embedded player needs more than ${EMBED_BUDGET_KB} KB of JavaScript (issue 28).`);
  }
  if (over || embed > EMBED_BUDGET_KB) process.exit(1);
}
