import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { chromiumPath } from '../tests/fixtures/browser';

// Where a page's main thread goes while it loads (issue 24: profile before optimising). Loads the
// page in Chromium at a phone's size with the CPU slowed 4× as Lighthouse's simulation assumes,
// takes a CPU profile until the page has loaded and five seconds more (a signed-in page may keep a request open), and prints the time spent
// per source file (node_modules per package) and per function, mapped back through the build's
// source maps. Against a running server with a built client (PROFILE_COOKIE, if set, as a Cookie
// header's "name=value; name=value", goes in the browser's jar: a signed-in page such as an album
// in Your music):
//   npx tsx bench/profile-page.ts http://127.0.0.1:3000/

const url = process.argv[2] ?? 'http://127.0.0.1:3000/';
const dist = path.resolve('dist');
const cookie = process.env.PROFILE_COOKIE;

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
if (cookie) {
  await context.addCookies(
    cookie.split(';').map((pair) => {
      const [name = '', ...value] = pair.trim().split('=');
      return { name, value: value.join('='), url };
    }),
  );
}
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'load' });
await page.waitForTimeout(5000);
const { profile } = await cdp.send('Profiler.stop');
// PROFILE_OUT=file.cpuprofile keeps the whole profile, to open in DevTools' Performance panel.
if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
await browser.close();

const selfTime = new Map<number, number>();
profile.samples!.forEach((node, index) =>
  selfTime.set(node, (selfTime.get(node) ?? 0) + (profile.timeDeltas![index] ?? 0)),
);
const maps = new Map<string, SourceMapConsumer | null>();
function sourceMapOf(scriptUrl: string) {
  if (!maps.has(scriptUrl)) {
    const file = path.join(dist, `${new URL(scriptUrl).pathname}.map`);
    maps.set(scriptUrl, fs.existsSync(file) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(file, 'utf8'))) : null);
  }
  return maps.get(scriptUrl);
}

const bySource = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (totals: Map<string, number>, key: string, micros: number) =>
  totals.set(key, (totals.get(key) ?? 0) + micros);
for (const node of profile.nodes) {
  const micros = selfTime.get(node.id) ?? 0;
  if (micros === 0) continue;
  const frame = node.callFrame;
  let source = frame.url ? frame.url.split('/').pop()! : frame.functionName;
  let name = frame.functionName;
  const map = frame.url.startsWith('http') ? sourceMapOf(frame.url) : null;
  const original = map?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  if (original?.source) {
    source = original.source.replace(/^.*node_modules\//, 'node_modules/').replace(/^(\.\.\/)+/, '');
    name = `${original.name ?? name}:${original.line}`;
  }
  const scoped = source.startsWith('node_modules/@') ? 3 : 2;
  add(bySource, source.startsWith('node_modules/') ? source.split('/').slice(0, scoped).join('/') : source, micros);
  add(byFunction, `${source} ${name}`, micros);
}
const show = (totals: Map<string, number>, count: number) => {
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
};
console.log(`${url}, CPU slowed 4×: time by source, then by function`);
show(bySource, 25);
console.log('');
show(byFunction, 30);
