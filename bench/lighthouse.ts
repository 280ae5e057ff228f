import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { seedDemoContent } from '../server/demo/seed';
import { startTestServer } from '../tests/fixtures/test-server';
import { chromiumPath } from '../tests/fixtures/browser';
import { criticalPathKb } from '../scripts/bundle-budget.mjs';

// Issue 13, first load: Lighthouse (mobile: a mid-range phone on slow 4G, simulated) on the three
// routes a visitor lands on, against the built app with the demo content, and the gzipped
// JavaScript each needs before it can show its content. Needs `npm run build`.

type Scores = { performance: number; accessibility: number; fcp: number; lcp: number; tbt: number; cls: number };

async function launchChromium(port: number) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-lh-'));
  const chromium = spawn(
    chromiumPath,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      `--remote-debugging-port=${port}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    const exited = new Promise((resolve) => chromium.once('exit', resolve));
    chromium.kill();
    await exited;
    fs.rmSync(profile, { recursive: true, force: true });
  };
}

async function audit(url: string, port: number): Promise<Scores> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (process.env.LIGHTHOUSE_REPORT_DIR) {
    const name = new URL(url).pathname.replace(/\W+/g, '_') || 'home';
    fs.writeFileSync(path.join(process.env.LIGHTHOUSE_REPORT_DIR, `${name}.json`), JSON.stringify(result.lhr, null, 1));
  }
  const { categories, audits } = result.lhr;
  const ms = (id: string) => audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: ms('total-blocking-time'),
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
  };
}

export async function benchLighthouse() {
  const dist = path.resolve('dist');
  if (!fs.existsSync(path.join(dist, '.vite', 'manifest.json'))) {
    console.log('\nLighthouse: skipped (run `npm run build` first)');
    return;
  }
  const server = await startTestServer({ CLIENT_DIST_DIR: dist, SEED_DEMO: 'true' });
  await seedDemoContent(server.db, server.config, server.media);
  const port = 9300 + Math.floor(Math.random() * 500);
  const stopChromium = await launchChromium(port);
  try {
    const routes = [
      { name: '/', path: '/', page: 'home' },
      { name: '/browse', path: '/browse', page: 'browse' },
      { name: '/projects/{slug}', path: '/projects/greatest-hits', page: 'fundraiser' },
    ];
    console.log('\nLighthouse 12, mobile (simulated slow 4G, 4× CPU slowdown), built app with the demo content');
    console.log(
      `  ${'route'.padEnd(18)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'FCP'.padStart(7)} ${'LCP'.padStart(7)} ${'TBT'.padStart(6)} ${'CLS'.padStart(6)}  critical JS (gzip)`,
    );
    for (const route of routes) {
      const scores = await audit(`${server.baseUrl}${route.path}`, port);
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `  ${route.name.padEnd(18)} ${String(scores.performance).padStart(5)} ${String(scores.accessibility).padStart(5)} ${s(scores.fcp).padStart(7)} ${s(scores.lcp).padStart(7)} ${`${Math.round(scores.tbt)} ms`.padStart(6)} ${scores.cls.toFixed(3).padStart(6)}  ${criticalPathKb(dist, route.page).toFixed(1)} KB`,
      );
    }
  } finally {
    await stopChromium();
    await server.close();
  }
}

// `npm run bench:lighthouse` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) await benchLighthouse();
