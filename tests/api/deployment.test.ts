import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import packageJson from '../../package.json';
import { loadConfig } from '../../server/config';

// The files of deploy/ (README, "Running it on one VM"), held to what the app really does: the
// systemd units parse, the unit's environment and the env file's make the production configuration
// the server expects and refuses until its secrets are filled in, and the unit, the health check
// and Caddy agree on the address, the health route and who compresses.

const deploy = (file: string) => fs.readFileSync(path.join('deploy', file), 'utf8');

/** `KEY=value` lines (an env file), or the unit's `Environment=KEY=value` lines. */
function variables(text: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${prefix}([A-Z_][A-Z0-9_]*)=(.*)$`).exec(line.trim());
    if (match) found[match[1]!] = match[2]!;
  }
  return found;
}

/** The values of one key of a unit file, in order. */
const directives = (unit: string, key: string) =>
  unit
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));

const unit = deploy('soundcause.service');
const unitEnv = variables(unit, 'Environment=');
const envFile = variables(deploy('soundcause.env.example'));

const backupUnit = deploy('soundcause-backup.service');
/** The grown variant: a drop-in over the same unit, and what it adds to the env file. */
const grownDropIn = deploy('grown/soundcause-grown.conf');
const grownEnv = variables(grownDropIn, 'Environment=');
const grownEnvFile = variables(deploy('grown/soundcause.env.example'));

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('the systemd units', () => {
  it.skipIf(!hasSystemdAnalyze)('parse: no unknown setting, every program there', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-units-'));
    const units = [
      'soundcause.service',
      'soundcause-health.service',
      'soundcause-health.timer',
      'soundcause-backup.service',
      'soundcause-backup.timer',
      'soundcause-statements.service',
      'soundcause-statements.timer',
      'soundcause-insight-prune.service',
      'soundcause-insight-prune.timer',
      // The grown variant's drop-in, as systemd reads it: its settings after the unit's.
      'soundcause-grown.service',
    ];
    const textOf = (file: string) => (file === 'soundcause-grown.service' ? `${unit}\n${grownDropIn}` : deploy(file));
    for (const file of units) {
      // The VM's node is /usr/bin/node; where this machine's is elsewhere, verify with it.
      const text = fs.existsSync('/usr/bin/node')
        ? textOf(file)
        : textOf(file).replaceAll('/usr/bin/node', process.execPath);
      fs.writeFileSync(path.join(dir, file), text);
    }
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', ...units.map((file) => path.join(dir, file))], {
      encoding: 'utf8',
    });
    fs.rmSync(dir, { recursive: true, force: true });
    // Unknown or misspelt settings are only warned about: any output is a failure here.
    expect(result.stderr + result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('run the compiled server with node, as user soundcause, restarted on failure, in production', () => {
    // The same node flags and malloc setting as `npm run serve` and `npm start`: the young
    // generation's cap, and not --optimize-for-size, which shrinks it to 1 MB whatever that cap
    // says and cost every request a third more CPU; two malloc arenas, not one per thread (issue 24).
    const [, arenas, flags] =
      /^MALLOC_ARENA_MAX=(\d+) node ((?:--[\w-]+(?:=\S+)? )*)dist-server\/main\.js$/.exec(packageJson.scripts.serve) ??
      [];
    expect(arenas).toBe('2');
    expect(flags).toContain('--max-semi-space-size=');
    expect(flags).not.toContain('--optimize-for-size');
    expect(directives(unit, 'ExecStart')).toEqual([`/usr/bin/node ${flags}dist-server/main.js`]);
    expect(unitEnv.MALLOC_ARENA_MAX).toBe(arenas);
    expect(packageJson.scripts.start).toBe(`MALLOC_ARENA_MAX=${arenas} node ${flags}scripts/start.mjs`);
    expect(packageJson.scripts.build).toContain('scripts/build-server.mjs');
    expect(directives(unit, 'User')).toEqual(['soundcause']);
    expect(directives(unit, 'Restart')).toEqual(['on-failure']);
    expect(unitEnv).toMatchObject({
      NODE_ENV: 'production',
      DATA_DIR: '/var/lib/soundcause',
      TRUST_PROXY: 'true',
      FFMPEG_PATH: '/usr/bin/ffmpeg',
    });
    // The data folder is the only place it may write, and it must be the mounted disk.
    expect(directives(unit, 'ReadWritePaths')).toEqual([unitEnv.DATA_DIR]);
    expect(directives(unit, 'RequiresMountsFor')).toEqual([unitEnv.DATA_DIR]);
    expect(directives(unit, 'ProtectSystem')).toEqual(['strict']);
    expect(directives(unit, 'NoNewPrivileges')).toEqual(['yes']);
  });
});

describe('the off-site backup unit', () => {
  it('runs the compiled CLI on the same data, user and env file as the site, hourly, only when set', () => {
    expect(directives(backupUnit, 'ExecStart')).toEqual(['/usr/bin/node dist-server/cli.js backup ${BACKUP_S3_URL}']);
    expect(directives(backupUnit, 'ExecCondition')).toEqual([`/bin/sh -c 'test -n "$BACKUP_S3_URL"'`]);
    for (const key of ['User', 'WorkingDirectory', 'EnvironmentFile', 'RequiresMountsFor', 'ReadWritePaths']) {
      expect(directives(backupUnit, key), key).toEqual(directives(unit, key));
    }
    expect(variables(backupUnit, 'Environment=')).toEqual({ NODE_ENV: unitEnv.NODE_ENV, DATA_DIR: unitEnv.DATA_DIR });
    expect(directives(deploy('soundcause-backup.timer'), 'OnCalendar')).toEqual(['hourly']);
  });
});

describe('the year-end statements unit', () => {
  it("runs the compiled CLI's send-statements for last year on the site's data, user and env file, each January 15", () => {
    const statements = deploy('soundcause-statements.service');
    expect(directives(statements, 'ExecStart')).toEqual([
      '/usr/bin/node dist-server/cli.js send-statements --year previous',
    ]);
    for (const key of ['User', 'WorkingDirectory', 'EnvironmentFile', 'RequiresMountsFor', 'ReadWritePaths']) {
      expect(directives(statements, key), key).toEqual(directives(unit, key));
    }
    expect(variables(statements, 'Environment=')).toEqual({ NODE_ENV: unitEnv.NODE_ENV, DATA_DIR: unitEnv.DATA_DIR });
    const timer = deploy('soundcause-statements.timer');
    expect(directives(timer, 'OnCalendar')).toEqual(['*-01-15 09:00']);
    expect(directives(timer, 'Persistent')).toEqual(['true']);
  });
});

describe('the insight prune unit', () => {
  it("runs the compiled CLI's prune-insight on the site's data, user and env file, each night", () => {
    const prune = deploy('soundcause-insight-prune.service');
    expect(directives(prune, 'ExecStart')).toEqual(['/usr/bin/node dist-server/cli.js prune-insight']);
    for (const key of ['User', 'WorkingDirectory', 'EnvironmentFile', 'RequiresMountsFor', 'ReadWritePaths']) {
      expect(directives(prune, key), key).toEqual(directives(unit, key));
    }
    expect(variables(prune, 'Environment=')).toEqual({ NODE_ENV: unitEnv.NODE_ENV, DATA_DIR: unitEnv.DATA_DIR });
    const timer = deploy('soundcause-insight-prune.timer');
    expect(directives(timer, 'OnCalendar')).toEqual(['*-*-* 04:30']);
    expect(directives(timer, 'Persistent')).toEqual(['true']);
  });
});

describe('the production configuration the deploy files make', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-deploy-'));
  const filled = {
    PUBLIC_URL: 'https://music.example.org',
    SMTP_URL: 'smtps://user:secret@smtp.example.org:465',
    MAIL_FROM: 'Soundcause <hello@music.example.org>',
    STRIPE_SECRET_KEY: 'sk_live_x',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
  };

  it('is complete once the env file is filled in', () => {
    const config = loadConfig({ ...unitEnv, ...envFile, ...filled });
    expect(config).toMatchObject({
      isProduction: true,
      host: '127.0.0.1',
      trustProxy: true,
      dataDir: '/var/lib/soundcause',
      ffmpegPath: '/usr/bin/ffmpeg',
      seedDemo: false,
      publicUrl: 'https://music.example.org',
    });
    expect(config.stripe).toBeDefined();
  });

  it('grown: several processes, media in the bucket behind the CDN, hourly backups kept to 48', () => {
    const keys = { S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret', METRICS_TOKEN: 'a'.repeat(48) };
    const config = loadConfig({ ...unitEnv, ...grownEnv, ...envFile, ...grownEnvFile, ...filled, ...keys });
    expect(config).toMatchObject({
      webConcurrency: 4,
      media: { bucket: 'soundcause-media', redirects: true, publicUrl: 'https://media.music.example.org' },
      backups: { s3Url: 's3://soundcause-backups/music.example.org', keep: 48 },
    });
  });

  describe('refused by the compiled server as it comes, naming what is missing', () => {
    let serverMain: string;
    beforeAll(async () => {
      fs.mkdirSync('.tmp', { recursive: true });
      const outdir = await buildServer(fs.mkdtempSync(path.join(path.resolve('.tmp'), 'dist-server-')));
      serverMain = path.join(outdir, 'main.js');
      return () => {
        fs.rmSync(outdir, { recursive: true, force: true });
        fs.rmSync(dataDir, { recursive: true, force: true });
      };
    });

    it('exits with the list of what to fill in, before touching any data', async () => {
      const result = await promisify(execFile)(process.execPath, [serverMain], {
        env: { PATH: process.env.PATH, ...unitEnv, ...envFile, DATA_DIR: dataDir, PORT: '0' },
      }).catch((error: { code: number; stderr: string }) => error);
      expect('code' in result && result.code).not.toBe(0);
      for (const message of [
        'PUBLIC_URL is required in production.',
        'SMTP_URL is required in production.',
        'MAIL_FROM is required in production.',
        'Stripe keys are required in production (the test provider takes no money).',
      ]) {
        expect(result.stderr).toContain(message);
      }
      expect(fs.readdirSync(dataDir)).toEqual([]);
    });
  });
});

describe('Caddy, the health checks and the unit agree', () => {
  const caddyfile = deploy('Caddyfile');
  const site = `http://${unitEnv.HOST}:${unitEnv.PORT}`;

  it('on the address the site listens on and the health route', () => {
    expect(caddyfile).toMatch(new RegExp(`^\\s*reverse_proxy ${unitEnv.HOST}:${unitEnv.PORT} \\{`, 'm'));
    expect(caddyfile).toMatch(/^\s*health_uri \/api\/health$/m);
    expect(directives(unit, 'ExecStartPost').join('\n')).toContain(`${site}/api/health`);
    expect(deploy('soundcause-health.service')).toContain(`${site}/api/health`);
  });

  it('leave compression to the site, which precompresses its files and compresses its answers', () => {
    expect(caddyfile).not.toMatch(/^\s*encode\b/m);
  });
});
