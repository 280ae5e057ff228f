import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildServer } from '../scripts/build-server.mjs';

// Servers under test as their own processes (issue 13): what a process costs is read from /proc,
// which a load generator or a test harness in the same process would blur.

const root = path.resolve(import.meta.dirname, '..');
const TICKS_PER_SECOND = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in these on Linux

/** CPU time the process has used so far (user + system), in microseconds, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / TICKS_PER_SECOND;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // ended while we looked
  }
}

function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and all its descendants, with the command name of each. */
export function processTree(pid: number): { pid: number; name: string; rssKb: number }[] {
  const all = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
  const children = new Map<number, number[]>();
  for (const each of all) {
    const parent = parentOf(each);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), each]);
  }
  const tree: number[] = [];
  const visit = (each: number) => {
    tree.push(each);
    for (const child of children.get(each) ?? []) visit(child);
  };
  visit(pid);
  return tree.map((each) => {
    let name = '?';
    try {
      name = fs.readFileSync(`/proc/${each}/comm`, 'utf8').trim();
    } catch {
      // ended while we looked
    }
    return { pid: each, name, rssKb: rssKb(each) };
  });
}

/** Summed VmRSS of the process and its descendants, in MB. */
export const treeRssMb = (pid: number) => processTree(pid).reduce((sum, each) => sum + each.rssKb, 0) / 1024;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type RunningServer = {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
};

/**
 * Runs `command` as its own process and waits for "running at" in its output. Its output is read
 * to the end all along (as journald would), so writing the log costs what it costs in production.
 */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp = /running at (http:\/\/\S+)/,
): Promise<RunningServer> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${output}`)), 180_000);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve((match[1] ?? '').replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  return {
    child,
    pid: child.pid!,
    baseUrl,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      // The whole tree: npm does not always pass the signal on, and a server left behind would
      // keep this process's pipes, and the machine's CPU, busy.
      const descendants = processTree(child.pid!).filter((each) => each.pid !== child.pid);
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      for (const { pid } of descendants) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // Already gone with its parent.
        }
      }
    },
  };
}

/** A fresh data folder under the system's temp folder. */
export const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-bench-'));

/**
 * Compiles the server as `npm run build` does and answers how to run it as `npm run serve` and the
 * deploy kit do: the variables that script sets before node (MALLOC_ARENA_MAX), node's flags of
 * that script, then the entry point.
 */
export async function compiledServer(): Promise<{ args: string[]; env: Record<string, string> }> {
  const outdir = await buildServer();
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  const words = scripts.serve.split(' ');
  const nodeAt = words.indexOf('node');
  const assignments = words.slice(0, nodeAt).map((word) => /^(\w+)=(.*)$/.exec(word));
  if (nodeAt === -1 || assignments.some((assignment) => assignment === null)) {
    throw new Error(`package.json's serve script is not [NAME=value ...] node [--flag ...] <entry>: ${scripts.serve}`);
  }
  const env = Object.fromEntries(assignments.map((assignment) => [assignment![1]!, assignment![2]!]));
  const flags = words.slice(nodeAt + 1).filter((word) => word.startsWith('--'));
  return { args: [...flags, path.join(outdir, 'main.js')], env };
}

/** Waits until the server's job queue (the demo's track processing) has nothing left to do. */
export async function jobsSettled(dataDir: string, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  const db = new Database(path.join(dataDir, 'soundcause.db'), { readonly: true, fileMustExist: true });
  try {
    for (;;) {
      const { n } = db.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get() as {
        n: number;
      };
      if (n === 0) return;
      if (Date.now() > deadline) throw new Error(`${n} jobs still pending after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    db.close();
  }
}

/**
 * Waits until the process runs alone: helpers it starts for a while (the image worker, ffmpeg)
 * end by themselves once idle.
 */
export async function alone(pid: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (processTree(pid).length > 1) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still has children after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Polls until `read` has not changed by more than 1 % for `quietMs` (the process has settled). */
export async function settledValue(read: () => number, quietMs = 3000, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = read();
    if (Math.abs(now - value) > value * 0.01) {
      value = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return now;
    }
  }
  return read();
}

/** An answer as it came over the wire: its body not decoded. */
export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One GET over `agent` (or a connection of its own), read whole. */
export function get(url: string, headers: Record<string, string>, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The content headers of `answer`, as a bare server sends them again. */
function contentHeaders(answer: Answer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-encoding', 'vary']) {
    const value = answer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * The app's framework alone: one Hono route on @hono/node-server answering `answer`'s body and
 * content headers, as they came. What any route of the app costs at least (issue 24).
 */
export async function bareHonoServer(answer: Answer): Promise<RunningServer> {
  const script = `
    import { serve } from '@hono/node-server';
    import { Hono } from 'hono';
    const body = Buffer.from(process.env.BODY, 'base64');
    const headers = JSON.parse(process.env.HEADERS);
    const app = new Hono().get('/', (c) => c.body(body, 200, headers));
    serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () =>
      console.log('running at http://127.0.0.1:' + process.env.PORT));`;
  return startProcess(process.execPath, ['--input-type=module', '-e', script], {
    BODY: answer.body.toString('base64'),
    HEADERS: JSON.stringify(contentHeaders(answer)),
    PORT: String(await freePort()),
  });
}

/** A bare node:http process answering `answer`'s body and content headers, as they came. */
export async function bareServer(answer: Answer): Promise<RunningServer> {
  const headers = contentHeaders(answer);
  const script = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY, 'base64');
    const headers = { ...JSON.parse(process.env.HEADERS), 'content-length': body.length };
    http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); })
      .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('running at http://127.0.0.1:' + process.env.PORT));`;
  return startProcess(process.execPath, ['-e', script], {
    BODY: answer.body.toString('base64'),
    HEADERS: JSON.stringify(headers),
    PORT: String(await freePort()),
  });
}
