import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { childProcesses } from '../../server/db/schema';
import { createLogger } from '../../server/infra/logger';
import {
  currentBootId,
  formatIdentity,
  identify,
  isRunning,
  type ProcessIdentity,
} from '../../server/infra/processes/identity';
import { processRegistry } from '../../server/infra/processes/registry';

// What a server that died left running (issue 22): the next start ends exactly those processes,
// with their process groups and half-written files, and nothing else. Every process here is
// real, seen through /proc as the server sees it.

let dir: string;
let opened: ReturnType<typeof openDatabase>;
const children: ChildProcess[] = [];
const logger = createLogger('silent');

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-processes-'));
  opened = openDatabase(path.join(dir, 'soundcause.db'));
});

afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      // Each runs in a group of its own: the whole group goes.
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Ended already.
    }
  }
  opened.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A process in a group of its own, as the ffmpeg runner starts one; its identity once it runs. */
async function start(command: string, args: string[]) {
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  children.push(child);
  await expect.poll(() => child.pid !== undefined && identify(child.pid)).toBeTruthy();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, identity: identify(child.pid!)!, exited };
}

/** Whether the shell `pid` has started its `sleep` (its child's command line is sleep's by now). */
function sleepingChildOf(pid: number): boolean {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.some((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').startsWith('sleep\0'));
  } catch {
    return false;
  }
}

/** A server process that has ended (crashed). */
async function endedServer(): Promise<ProcessIdentity> {
  const server = await start('sleep', ['60']);
  server.child.kill('SIGKILL');
  await server.exited;
  return server.identity;
}

/** Half-written output files under the data folder. */
function outputs(...names: string[]) {
  return names.map((name) => {
    const file = path.join(dir, 'media', 'streams', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'half an mp3');
    return file;
  });
}

/** The registry as a server `owner` sees it. */
const registryOf = (owner: ProcessIdentity) => processRegistry(opened.db, { root: dir, logger, owner });

/** What `owner` writes down when it starts `pid` with `args`, writing `files`; the record's id. */
function recordStarted(owner: ProcessIdentity, pid: number, args: string[], files: string[]) {
  const registry = registryOf(owner);
  const id = registry.record(args, files);
  registry.started(id, pid);
  return id;
}
const records = () => opened.db.select().from(childProcesses).all();

describe('process identity', () => {
  it('knows a process by its boot, pid and start time, and an ended one as ended', async () => {
    const running = await start('sleep', ['60']);
    const stat = fs.readFileSync(`/proc/${running.child.pid}/stat`, 'utf8');
    expect(running.identity).toEqual({
      bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pid: running.child.pid,
      startTicks: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]),
    });
    expect(isRunning(running.identity)).toBe(true);
    // The same pid with another start time, or in another boot, is another process.
    expect(isRunning({ ...running.identity, startTicks: running.identity.startTicks + 1 })).toBe(false);
    expect(isRunning({ ...running.identity, bootId: 'an-earlier-boot' })).toBe(false);
    running.child.kill('SIGKILL');
    await running.exited;
    expect(isRunning(running.identity)).toBe(false);
  });
});

describe('processes a dead server left', () => {
  it('ends the process and its whole group, removes its files, and forgets it', async () => {
    // A shell that started a child of its own: both are in the group it leads.
    const script = 'sleep 60 & echo $! > "$0"; wait';
    const pidFile = path.join(dir, 'grandchild.pid');
    const abandoned = await start('sh', ['-c', script, pidFile]);
    await expect.poll(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '').toBe(true);
    const grandchild = identify(Number(fs.readFileSync(pidFile, 'utf8')))!;
    const files = outputs('a.mp3', 'b.mp3');
    recordStarted(await endedServer(), abandoned.child.pid!, ['-c', script, pidFile], files);

    expect(await registryOf(identify(process.pid)!).endAbandoned()).toBe(1);
    expect(isRunning(abandoned.identity)).toBe(false);
    await expect.poll(() => isRunning(grandchild)).toBe(false);
    expect(files.filter((file) => fs.existsSync(file))).toEqual([]);
    expect(records()).toEqual([]);
  });

  it('finds by its command line a child whose server died before writing down its pid', async () => {
    // The arguments name a file of this run alone, as ffmpeg's fresh output names do.
    const unique = path.join(dir, `run-${process.pid}-${Date.now()}`);
    const script = 'sleep 60; true';
    const abandoned = await start('sh', ['-c', script, unique]);
    // The shell forks its sleep: until the fork has become sleep, it too carries the shell's
    // command line (a busy machine can take a while), and would be found and killed as well.
    await expect.poll(() => sleepingChildOf(abandoned.identity.pid), { timeout: 10_000 }).toBe(true);
    const files = outputs('e.mp3');
    registryOf(await endedServer()).record(['-c', script, unique], files);

    expect(await registryOf(identify(process.pid)!).endAbandoned()).toBe(1);
    expect(isRunning(abandoned.identity)).toBe(false);
    expect(fs.existsSync(files[0]!)).toBe(false);
    expect(records()).toEqual([]);
  });

  it('leaves the processes of a server that still runs alone', async () => {
    const liveServer = await start('sleep', ['60']);
    const child = await start('sleep', ['61']);
    const files = outputs('c.mp3');
    recordStarted(liveServer.identity, child.child.pid!, ['61'], files);

    expect(await registryOf(identify(process.pid)!).endAbandoned()).toBe(0);
    expect(isRunning(child.identity)).toBe(true);
    expect(fs.existsSync(files[0]!)).toBe(true);
    expect(records()).toHaveLength(1);
  });

  it('never kills a process that only has the pid recorded: another start time, another boot, another command', async () => {
    const crashed = await endedServer();
    const other = await start('sleep', ['62']);
    const pid = other.child.pid!;
    const insert = (identity: ProcessIdentity, args: string[], name: string) => {
      const id = recordStarted(crashed, pid, args, outputs(name));
      opened.sqlite.prepare('UPDATE child_processes SET process = ? WHERE id = ?').run(formatIdentity(identity), id);
    };
    // The pid was reused by a process started later (after the recorded one ended) ...
    insert({ ...other.identity, startTicks: other.identity.startTicks - 1 }, ['62'], 'reused.mp3');
    // ... or the record is from before a reboot, when the pid meant something else ...
    insert({ ...other.identity, bootId: 'an-earlier-boot' }, ['62'], 'rebooted.mp3');
    // ... or the process is the one recorded but runs something else than what was recorded.
    insert(other.identity, ['-i', 'a-track.wav'], 'other-command.mp3');

    expect(await registryOf(identify(process.pid)!).endAbandoned()).toBe(0);
    expect(isRunning(other.identity)).toBe(true);
    // The records were the dead server's: their files were half-made all the same, and go.
    expect(fs.readdirSync(path.join(dir, 'media', 'streams'))).toEqual([]);
    expect(records()).toEqual([]);
  });

  it('removes no file outside the data folder, whatever a record says', async () => {
    const outside = path.join(os.tmpdir(), `soundcause-outside-${process.pid}-${Date.now()}.txt`);
    fs.writeFileSync(outside, 'not ours');
    try {
      recordStarted(await endedServer(), 999_999_999, ['-i', 'x'], [outside]);
      await registryOf(identify(process.pid)!).endAbandoned();
      expect(fs.existsSync(outside)).toBe(true);
      expect(records()).toEqual([]);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('treats a record from another boot as abandoned', async () => {
    const files = outputs('d.mp3');
    recordStarted({ bootId: 'an-earlier-boot', pid: process.pid, startTicks: 1 }, 999_999_999, ['-y'], files);
    expect(currentBootId()).not.toBe('an-earlier-boot');
    await registryOf(identify(process.pid)!).endAbandoned();
    expect(fs.existsSync(files[0]!)).toBe(false);
    expect(records()).toEqual([]);
  });
});
