import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEE_RATES } from '../../shared/fee-cover';
import { buildServer } from '../../scripts/build-server.mjs';
import packageJson from '../../package.json';
import { freePort } from '../fixtures/crash/server-process';
import { TestClient } from '../fixtures/test-server';

// The real entry points as an operator runs them: the compiled server (`npm run serve`, which
// `npm start` runs in its own process after building) and the admin CLI.

const tsx = path.resolve('node_modules/.bin/tsx');
let serverMain: string;
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

beforeAll(async () => {
  // Into a folder of its own, as `npm run build` makes dist-server/, so a test run leaves no build.
  fs.mkdirSync('.tmp', { recursive: true });
  const outdir = await buildServer(fs.mkdtempSync(path.join(path.resolve('.tmp'), 'dist-server-')));
  serverMain = path.join(outdir, 'main.js');
  return () => fs.rmSync(outdir, { recursive: true, force: true });
});

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [serverMain], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/running at (https?:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { url, output: () => output, child };
}

/** SIGTERM, as systemd stops it; answers the exit code. */
async function stop(child: ChildProcess) {
  return new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** The processes started by `pid` that are still running. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-start-'));

describe('server start-up', () => {
  it('creates DATA_DIR, migrates, seeds a demo admin whose printed login works, and restarts cleanly', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const first = await startServer({ DATA_DIR: dataDir });
    expect(fs.existsSync(path.join(dataDir, 'soundcause.db'))).toBe(true);
    const login = first.output().match(/demo admin: (\S+) \/ (\S+)/);
    expect(login).not.toBeNull();
    const [, email = '', password = ''] = login!;

    const client = new TestClient(first.url.replace('localhost', '127.0.0.1'));
    expect((await client.get('/api/health')).json).toEqual({ ok: true });
    const response = await client.post('/api/login', { form: { email, password } });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ email, isAdmin: true, isEmailVerified: true });
    const demo = (await client.get('/api/artists/search')).json as { totalCount: number; results: { image: string }[] };
    expect(demo.totalCount).toBe(4);
    for (const artist of demo.results) expect((await fetch(`${client.baseUrl}${artist.image}`)).status).toBe(200);
    // Demo fundraisers with covers, playable previews and the Greatest Hits promo's id.
    const fundraisers = (await client.get('/api/fundraisers/search')).json as {
      totalCount: number;
      results: { id: number; image: string; previewTrackPreview: string; totalRaised: number }[];
    };
    expect(fundraisers.totalCount).toBe(4);
    expect(fundraisers.results.map((f) => f.id)).toContain(683);
    for (const fundraiser of fundraisers.results) {
      expect((await fetch(`${client.baseUrl}${fundraiser.image}`)).status).toBe(200);
      const preview = await fetch(`${client.baseUrl}${fundraiser.previewTrackPreview}`);
      // The original WAV until the job runner has made the MP3 rendition, then the rendition.
      expect(preview.headers.get('content-type')).toMatch(/^audio\/(wav|mpeg)$/);
      expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(50_000);
      expect(fundraiser.totalRaised).toBeGreaterThan(0);
    }
    await stop(first.child);

    const second = await startServer({ DATA_DIR: dataDir });
    expect(second.output()).toContain(`demo admin: ${email} / ${password}`);
    const again = new TestClient(second.url.replace('localhost', '127.0.0.1'));
    expect(((await again.get('/api/artists/search')).json as { totalCount: number }).totalCount).toBe(4);
    expect(((await again.get('/api/fundraisers/search')).json as { totalCount: number }).totalCount).toBe(4);
    // Shut down cleanly: answers finished, jobs interrupted, the database closed, exit code 0.
    expect(await stop(second.child)).toBe(0);
  });

  it('creates the ADMIN_EMAIL admin idempotently and seeds nothing when SEED_DEMO=false', async () => {
    const dataDir = tempDir();
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'Ops@Example.org',
      ADMIN_PASSWORD: 'Op3rator!pass',
      SEED_DEMO: 'false',
    };
    const first = await startServer(env);
    expect(first.output()).not.toContain('demo admin');
    await stop(first.child);
    const second = await startServer(env);
    const client = new TestClient(second.url.replace('localhost', '127.0.0.1'));
    const login = await client.post('/api/login', { form: { email: 'ops@example.org', password: 'Op3rator!pass' } });
    expect(login.json).toMatchObject({ email: 'ops@example.org', isAdmin: true });
    // One process serves: no loader, launcher or worker beside it (issue 13's small VM).
    expect(childrenOf(second.child.pid!)).toEqual([]);
  });

  it('needs only the packages of `dependencies` (a production install omits the rest)', () => {
    const dependencies = new Set(Object.keys(packageJson.dependencies));
    const dir = path.dirname(serverMain);
    const imported = new Set<string>();
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const [, specifier] of code.matchAll(
        // `from` as a keyword, not the end of a string ('from' as a query parameter's name).
        /(?:(?<!["'])\bfrom\s*|\bimport\s*\(\s*|createRequire\(import\.meta\.url\)\(\s*|\bimport\s+)["']([^"'.][^"']*)["']/g,
      )) {
        if (specifier!.startsWith('node:')) continue;
        const parts = specifier!.split('/');
        imported.add(specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !dependencies.has(name))).toEqual([]);
  });

  it('refuses to start in production without its secrets, naming them', async () => {
    const result = await promisify(execFile)(process.execPath, [serverMain], {
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: tempDir(), PORT: '0' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in result && result.code).not.toBe(0);
    expect(result.stderr).toContain('PUBLIC_URL is required in production.');
    expect(result.stderr).toContain('SMTP_URL is required in production.');
  });

  it(
    'refuses to start in production on the test provider: all three Stripe keys or nothing',
    { timeout: 90_000 },
    async () => {
      const production = {
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        PUBLIC_URL: 'https://music.example.org',
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'Soundcause <hello@music.example.org>',
        STRIPE_SECRET_KEY: '',
        STRIPE_PUBLISHABLE_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
      };
      const run = (env: Record<string, string>) =>
        promisify(execFile)(tsx, ['server/main.ts'], {
          env: { ...process.env, DATA_DIR: tempDir(), ...production, ...env },
          // A server that starts after all is stopped rather than left running.
          timeout: 20_000,
        }).catch((error: { code: number; stderr: string }) => error);

      // Everything else a production server needs is there: only the payment provider is missing.
      const noKeys = await run({});
      expect('code' in noKeys && noKeys.code).not.toBe(0);
      expect(noKeys.stderr).toContain('Stripe keys are required in production (the test provider takes no money).');
      expect(noKeys.stderr).not.toMatch(/PUBLIC_URL|SMTP_URL|MAIL_FROM/);

      const oneKey = await run({ STRIPE_SECRET_KEY: 'sk_live_only' });
      expect('code' in oneKey && oneKey.code).not.toBe(0);
      expect(oneKey.stderr).toContain(
        'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set together.',
      );

      // With the three keys the same configuration starts (Stripe is not called until a donation).
      // It names its PUBLIC_URL, so it listens on a port chosen here.
      const port = await freePort();
      const started = await startServer({
        DATA_DIR: tempDir(),
        ...production,
        PORT: String(port),
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      });
      expect(started.url).toBe('https://music.example.org');
      const client = new TestClient(`http://127.0.0.1:${port}`);
      expect((await client.get('/api/payments/config')).json).toEqual({
        provider: 'stripe',
        publishableKey: 'pk_live_x',
        feeRates: DEFAULT_FEE_RATES,
      });
    },
  );
});

describe('admin CLI', () => {
  it('creates an admin, then promotes an existing account without touching its password', async () => {
    const dataDir = tempDir();
    const run = (...args: string[]) =>
      promisify(execFile)(tsx, ['server/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });

    const created = await run('create-admin', '--email', 'chief@example.org', '--password', 'Ch1ef!pass');
    expect(created.stdout).toContain('Created admin chief@example.org');
    const again = await run('create-admin', '--email', 'chief@example.org', '--password', 'Other!pass1');
    expect(again.stdout).toContain('was already an admin (password unchanged)');

    const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    const client = new TestClient(server.url.replace('localhost', '127.0.0.1'));
    const login = await client.post('/api/login', { form: { email: 'chief@example.org', password: 'Ch1ef!pass' } });
    expect(login.json).toMatchObject({ isAdmin: true });
  });

  it('rejects a weak password with the password rules', async () => {
    const result = await promisify(execFile)(
      tsx,
      ['server/cli.ts', 'create-admin', '--email', 'x@example.org', '--password', 'weak'],
      { env: { ...process.env, DATA_DIR: tempDir() } },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(result.stderr).toContain('Must contain at least 8 characters.');
  });
});
