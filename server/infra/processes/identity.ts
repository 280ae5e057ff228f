import fs from 'node:fs';

// Which process a pid names (issue 22). A pid alone proves nothing: the kernel hands it out again
// once its process has ended, and after a reboot every number starts over, so a pid written down
// before a crash may now be a shell, a database or another site's ffmpeg. A process is therefore
// known by three things together: the boot it ran in (/proc/sys/kernel/random/boot_id, new at
// every boot), its pid, and the moment it started (/proc/<pid>/stat field 22, in clock ticks since
// that boot). No two processes of one boot have the same pid and start, so a match is the same
// process; anything else is left alone.
//
// Without /proc (macOS while developing) a start time cannot be read: a pid is all there is, a
// recorded process counts as running while its pid does, and nothing is ever killed on its word.

export type ProcessIdentity = { bootId: string; pid: number; startTicks: number };

const BOOT_ID_FILE = '/proc/sys/kernel/random/boot_id';

let cachedBootId: string | undefined;

/** This boot's id, or '' without /proc. */
export function currentBootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync(BOOT_ID_FILE, 'utf8').trim();
    } catch {
      cachedBootId = '';
    }
  }
  return cachedBootId;
}

type Stat = { state: string; processGroup: number; startTicks: number };

/**
 * The fields of /proc/<pid>/stat this module needs. The second field is the program's name in
 * parentheses and may itself hold spaces and parentheses, so the fields are counted from the
 * last ')'. Undefined when there is no such process (or no /proc).
 */
function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the name: field 3 (state) is at 0, field 5 (the process group) at 2, field 22 (start
  // time in clock ticks since boot) at 19.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const processGroup = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (!fields[0] || !Number.isSafeInteger(processGroup) || !Number.isSafeInteger(startTicks)) return undefined;
  return { state: fields[0], processGroup, startTicks };
}

/** The identity of the live process `pid`, or undefined when it has ended (or without /proc). */
export function identify(pid: number): ProcessIdentity | undefined {
  const stat = readStat(pid);
  const bootId = currentBootId();
  if (!stat || !bootId || isDead(stat)) return undefined;
  return { bootId, pid, startTicks: stat.startTicks };
}

/** This process: what it writes down as the owner of the jobs and processes it starts. */
export function thisProcess(): ProcessIdentity {
  return identify(process.pid) ?? { bootId: '', pid: process.pid, startTicks: 0 };
}

/** Ended, or ended and not yet reaped by its parent (a zombie runs nothing and writes nothing). */
const isDead = (stat: Stat) => stat.state === 'Z' || stat.state === 'X';

function pidAnswers(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process recorded as `identity` is still running (the very one, not its pid's next owner). */
export function isRunning(identity: ProcessIdentity): boolean {
  if (!identity.bootId) return pidAnswers(identity.pid);
  if (identity.bootId !== currentBootId()) return false;
  const stat = readStat(identity.pid);
  return stat !== undefined && !isDead(stat) && stat.startTicks === identity.startTicks;
}

/**
 * Whether the process recorded as `identity` runs in this boot and can be checked here: only such
 * a process can ever be proven to be the one recorded, so only such a process may be signalled.
 */
export function isProvable(identity: ProcessIdentity): boolean {
  return identity.bootId !== '' && identity.bootId === currentBootId();
}

/** The process group `pid` leads, when it leads one (it was started in a group of its own). */
export function leadsGroup(pid: number): boolean {
  return readStat(pid)?.processGroup === pid;
}

/** The words a process was started with (/proc/<pid>/cmdline), or undefined when unreadable. */
export function commandLine(pid: number): string[] | undefined {
  try {
    const words = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (words.at(-1) === '') words.pop();
    return words;
  } catch {
    return undefined;
  }
}

/**
 * The live processes of this boot whose command line ends with `args`, found by reading every
 * /proc/<pid>/cmdline (a few hundred files on a small VM, read only at start-up).
 */
export function findByCommandLine(args: string[]): ProcessIdentity[] {
  if (args.length === 0) return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const found: ProcessIdentity[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const words = commandLine(Number(entry));
    if (!words || !endsWith(words, args)) continue;
    const identity = identify(Number(entry));
    if (identity) found.push(identity);
  }
  return found;
}

/** Whether `words` (a command line) ends with `args`: a wrapper (setpriv, nice) may come before. */
export function endsWith(words: string[], args: string[]): boolean {
  if (args.length === 0 || words.length < args.length) return false;
  const offset = words.length - args.length;
  return args.every((arg, index) => words[offset + index] === arg);
}

/** As stored in the database (jobs.locked_by, child_processes): `bootId/pid/startTicks`. */
export function formatIdentity(identity: ProcessIdentity): string {
  return `${identity.bootId}/${identity.pid}/${identity.startTicks}`;
}

export function parseIdentity(text: string): ProcessIdentity | undefined {
  const [bootId = '', pid, startTicks] = text.split('/');
  const parsed = { bootId, pid: Number(pid), startTicks: Number(startTicks) };
  return Number.isSafeInteger(parsed.pid) && parsed.pid > 0 && Number.isSafeInteger(parsed.startTicks)
    ? parsed
    : undefined;
}

/**
 * Whether the owner recorded for a job or a process has ended: a crash, a kill, a reboot. A record
 * without a readable owner was made by a version that wrote none (one server, so whichever
 * server starts now is its successor).
 */
export function ownerIsGone(owner: string | null): boolean {
  const identity = owner ? parseIdentity(owner) : undefined;
  return !identity || !isRunning(identity);
}
