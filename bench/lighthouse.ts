import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../tests/fixtures/browser';
import { criticalPathKb, embedKb } from '../scripts/bundle-budget.mjs';
import { embedUrl } from '../shared/embed';
import {
  alone,
  compiledServer,
  freePort,
  jobsSettled,
  type RunningServer,
  startProcess,
  tempDataDir,
} from './processes';

// Issues 13 and 24, first load: Lighthouse (mobile: a mid-range phone on slow 4G, simulated) on the
// routes a fan lands on, against the compiled server as `npm start` runs it, on the demo content
// once its tracks are transcoded: three runs each, the median by performance score, the spread,
// and the host's benchmark index of each run (Lighthouse's measure of how fast this machine was
// at that moment: its simulated 4x slowdown multiplies whatever the machine is doing). And the
// gzipped JavaScript each page needs before it can show its content. Needs `npm run build`.
// LIGHTHOUSE_ROUTES=embed-compact,embed-full measures only the routes with those ids.

const RUNS = 3;

/** Issue 28's targets for the embedded player's page, as Lighthouse scores out of 100. */
const EMBED_TARGETS = { performance: 95, accessibility: 100 };

type Scores = {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  benchmarkIndex: number;
  /** The accessibility audits that failed, with the elements each names: what to fix for 100. */
  accessibilityFailures: string[];
  /** Why Lighthouse could not measure the page this run (its runtimeError), if it could not. */
  error?: string;
};

type Route = {
  /** What LIGHTHOUSE_ROUTES names it by. */
  id: string;
  name: string;
  path: string;
  /** Its name in page-chunks.json, or 'embed' for the embedded player's page. */
  page: string;
  signedIn?: boolean;
  /** An issue's targets for the median run. */
  targets?: { performance: number; accessibility: number };
};

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
    // Chromium's helper processes may still be writing into the profile as the browser exits.
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
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
    const { pathname, search } = new URL(url);
    const name = `${pathname}${search}`.replace(/\W+/g, '_') || 'home';
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
    benchmarkIndex: result.lhr.environment.benchmarkIndex,
    accessibilityFailures: (categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
      .map((ref) => `${ref.id}: ${failingNodes(audits[ref.id]!.details).join(', ')}`),
    error: result.lhr.runtimeError && `${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`,
  };
}

/** The elements a failed audit names (its details' items, as selectors), or what it says instead. */
function failingNodes(details: unknown): string[] {
  const items = (details as { items?: { node?: { selector?: string; snippet?: string } }[] } | undefined)?.items;
  return (items ?? []).map((item) => item.node?.selector ?? item.node?.snippet ?? JSON.stringify(item));
}

/** The demo admin's session cookies (the demo's albums are theirs, so they are in Your music). */
async function demoAdminCookies(baseUrl: string, dataDir: string): Promise<{ name: string; value: string }[]> {
  const { email, password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-admin.json'), 'utf8')) as {
    email: string;
    password: string;
  };
  const answer = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    body: new URLSearchParams({ email, password }).toString(),
  });
  if (answer.status !== 200) throw new Error(`the demo admin could not log in: ${answer.status}`);
  return answer.headers.getSetCookie().map((cookie) => {
    const [name = '', ...value] = cookie.split(';')[0]!.split('=');
    return { name, value: value.join('=') };
  });
}

/**
 * Signs the browser in by putting the session's cookies in its own jar (Lighthouse keeps cookies
 * between runs). Not as a request header: the page reads the readable signed-in hint from
 * document.cookie, and without it a signed-in page would be measured as a guest sent to log in.
 */
async function signInBrowser(port: number, baseUrl: string, cookies: { name: string; value: string }[]) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    await browser.contexts()[0]!.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseUrl })));
  } finally {
    // Over CDP this only disconnects: the browser goes on for Lighthouse.
    await browser.close();
  }
}

export async function benchLighthouse() {
  const dist = path.resolve('dist');
  if (!fs.existsSync(path.join(dist, '.vite', 'manifest.json'))) {
    console.log('\nLighthouse: skipped (run `npm run build` first)');
    return;
  }
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  const port = 9300 + Math.floor(Math.random() * 500);
  let stopChromium: (() => Promise<void>) | undefined;
  try {
    const compiled = await compiledServer();
    server = await startProcess(process.execPath, compiled.args, {
      ...compiled.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      CLIENT_DIST_DIR: dist,
    });
    await jobsSettled(dataDir);
    await alone(server.pid);
    const base = server.baseUrl;
    const featured = (await (await fetch(`${base}/api/fundraisers/featured`)).json()) as { urlSlug: string }[];
    const slug = featured[0]!.urlSlug;
    const cookies = await demoAdminCookies(base, dataDir);
    stopChromium = await launchChromium(port);
    // The featured fundraiser's embedded player (issue 28) is measured on its own, as a tab: the
    // page a frame shows, without the host page around it. Its script is its own build entry.
    const allRoutes: Route[] = [
      { id: 'home', name: '/', path: '/', page: 'home' },
      { id: 'browse', name: '/browse', path: '/browse', page: 'browse' },
      { id: 'fundraiser', name: '/projects/{slug}', path: `/projects/${slug}`, page: 'fundraiser' },
      { id: 'donate', name: '/projects/{slug}/donate', path: `/projects/${slug}/donate`, page: 'donate' },
      {
        id: 'embed-compact',
        name: '/embed/{slug} compact',
        path: embedUrl('', slug, { size: 'compact', theme: 'light' }),
        page: 'embed',
        targets: EMBED_TARGETS,
      },
      {
        id: 'embed-full',
        name: '/embed/{slug} full',
        path: embedUrl('', slug, { size: 'full', theme: 'light' }),
        page: 'embed',
        targets: EMBED_TARGETS,
      },
      { id: 'album', name: '/music/album/{slug}', path: `/music/album/${slug}`, page: 'album', signedIn: true },
    ];
    const only = process.env.LIGHTHOUSE_ROUTES?.split(',').map((id) => id.trim());
    const routes = only ? allRoutes.filter((route) => only.includes(route.id)) : allRoutes;
    if (only && routes.length !== only.length) {
      throw new Error(`LIGHTHOUSE_ROUTES names routes that are not measured; known: ${allRoutes.map((r) => r.id)}`);
    }
    console.log(
      `\nLighthouse 12, mobile (simulated slow 4G, 4× CPU slowdown), the compiled server on the demo content, ${RUNS} runs each, the median by score`,
    );
    console.log(
      `  ${'route'.padEnd(24)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'FCP'.padStart(7)} ${'LCP'.padStart(7)} ${'TBT'.padStart(6)} ${'CLS'.padStart(6)}  ${'critical JS'.padEnd(11)}  runs: perf, TBT, LCP (benchmark index)`,
    );
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    for (const route of routes) {
      const runs: Scores[] = [];
      // The signed-in route comes last: from here on the browser is the demo admin's.
      if (route.signedIn) await signInBrowser(port, base, cookies);
      for (let run = 0; run < RUNS; run++) runs.push(await audit(`${base}${route.path}`, port));
      const median = [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(RUNS / 2)]!;
      const each = runs
        .map((run) =>
          run.error
            ? `not measured: ${run.error} (${Math.round(run.benchmarkIndex)})`
            : `${run.performance}, ${Math.round(run.tbt)} ms, ${s(run.lcp)} (${Math.round(run.benchmarkIndex)})`,
        )
        .join('; ');
      // Pages whose chunks the HTML names (page-chunks.json); others load theirs as the app asks.
      const chunks = JSON.parse(fs.readFileSync(path.join(dist, 'page-chunks.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      // The embedded player's script is all it loads, the whole of its entry.
      const criticalJs =
        route.page === 'embed'
          ? `${embedKb(dist).toFixed(1)} KB`
          : route.page in chunks
            ? `${criticalPathKb(dist, route.page).toFixed(1)} KB`
            : '';
      const target = route.targets
        ? `  target perf ≥ ${route.targets.performance}, a11y ${route.targets.accessibility}: ${
            median.performance >= route.targets.performance && median.accessibility >= route.targets.accessibility
              ? 'met'
              : 'NOT met'
          }`
        : '';
      console.log(
        `  ${route.name.padEnd(24)} ${String(median.performance).padStart(5)} ${String(median.accessibility).padStart(5)} ${s(median.fcp).padStart(7)} ${s(median.lcp).padStart(7)} ${`${Math.round(median.tbt)} ms`.padStart(6)} ${median.cls.toFixed(3).padStart(6)}  ${criticalJs.padEnd(11)}  ${each}${target}`,
      );
      for (const failure of median.accessibilityFailures) console.log(`    accessibility audit failed: ${failure}`);
    }
  } finally {
    await stopChromium?.();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run bench:lighthouse` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) await benchLighthouse();
