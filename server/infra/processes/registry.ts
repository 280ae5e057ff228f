import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { childProcesses } from '../../db/schema';
import type { Logger } from '../logger';
import {
  commandLine,
  endsWith,
  findByCommandLine,
  formatIdentity,
  identify,
  isProvable,
  isRunning,
  leadsGroup,
  ownerIsGone,
  parseIdentity,
  type ProcessIdentity,
  thisProcess,
} from './identity';

// The child processes a server waits on (ffmpeg), written down while they run (issue 22). A
// kill -9 of the server gives it no chance to end them: they run on, reparented, and the next
// start would run the same work a second time beside them, each writing its own files. The next
// start (or, once several servers share the database, any server) ends what a dead server left:
//   1. only records whose owner has ended: a live server's children are its own business;
//   2. only the very process recorded (same boot, pid and start time, and a command line ending
//      with the recorded arguments): a reused pid is left alone. The record is written before
//      the child starts and its pid added after, so a crash in between leaves a record without
//      a pid, whose child is then found by its command line alone;
//   3. its whole process group (it was started as the leader of one), and waits until it is gone;
//   4. then its half-written files, then the record. Only after that do its jobs run again.

const KILL_WAIT_MS = 5000;

export type ProcessRegistry = ReturnType<typeof processRegistry>;

/** A JSON array of strings from the table, or [] when it is not one (nothing is done on its word). */
function stringArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];
  } catch {
    return [];
  }
}

/** Whether the process recorded is still that very process, running the recorded command. */
function isStillTheChild(child: ProcessIdentity, args: string[]): boolean {
  if (!isProvable(child) || !isRunning(child)) return false;
  const words = commandLine(child.pid);
  return words !== undefined && endsWith(words, args);
}

function signal(target: number) {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Ended meanwhile.
  }
}

async function waitUntilEnded(child: ProcessIdentity, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(child)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * The registry of `db`'s child processes. `root` (DATA_DIR) is where outputs may be removed, and
 * nothing outside it; `owner` is the server writing records (this process unless a test says).
 */
export function processRegistry(db: Db, options: { root: string; logger: Logger; owner?: ProcessIdentity }) {
  const { logger } = options;
  const root = path.resolve(options.root);
  const owner = formatIdentity(options.owner ?? thisProcess());

  /** A recorded output as a path under `root`, or undefined if it would lead out of it. */
  const underRoot = (relative: string) => {
    const file = path.resolve(root, relative);
    return file.startsWith(root + path.sep) ? file : undefined;
  };

  async function removeOutputs(outputs: string[]) {
    for (const relative of outputs) {
      const file = underRoot(relative);
      if (file) await fs.rm(file, { force: true });
    }
  }

  /**
   * The processes a record stands for that still run it. A record without its process was
   * written by a server that died before it could add the pid (just before or just after it
   * started the child): the child, if it started, is the process whose command line ends with
   * the recorded arguments, which name files of that run alone (ffmpeg's fresh output names).
   */
  function stillRunning(row: typeof childProcesses.$inferSelect): ProcessIdentity[] {
    const args = stringArray(row.args);
    const recorded = row.process ? parseIdentity(row.process) : undefined;
    const candidates = row.process ? (recorded ? [recorded] : []) : findByCommandLine(args);
    return candidates.filter((child) => isStillTheChild(child, args));
  }

  return {
    /**
     * Writes down a child about to be started: `args` as it will be given them, `outputs` the
     * files it writes. Written before the child starts, so no crash can leave a child that no
     * record names. Answers the record's id, for `started` and `forget`.
     */
    record(args: string[], outputs: string[]): number {
      const row = db
        .insert(childProcesses)
        .values({
          owner,
          args: JSON.stringify(args),
          outputs: JSON.stringify(outputs.map((file) => path.relative(root, path.resolve(root, file)))),
        })
        .returning({ id: childProcesses.id })
        .get();
      return row.id;
    },

    /** The child of record `id` has started as `pid`. */
    started(id: number, pid: number) {
      // Without /proc (or once it has already ended) nothing can be proven about the child, so
      // it will never be signalled on this record's word; its outputs can still be removed.
      const child = identify(pid) ?? { bootId: '', pid, startTicks: 0 };
      db.update(childProcesses)
        .set({ process: formatIdentity(child) })
        .where(eq(childProcesses.id, id))
        .run();
    },

    /** The child has ended and its caller dealt with its files: no longer anyone's concern. */
    forget(id: number) {
      db.delete(childProcesses).where(eq(childProcesses.id, id)).run();
    },

    /**
     * Ends the children of servers that have ended (see the top of this file). Answers how many
     * processes were killed; the records of those gone anyway are cleared too.
     */
    async endAbandoned(): Promise<number> {
      let killed = 0;
      const rows = db.select().from(childProcesses).all();
      for (const row of rows.filter((candidate) => ownerIsGone(candidate.owner))) {
        const children = stillRunning(row);
        for (const child of children) {
          // The negative pid signals its whole group (ffmpeg's own children too, if it had any).
          signal(leadsGroup(child.pid) ? -child.pid : child.pid);
          killed++;
        }
        const ended = await Promise.all(children.map((child) => waitUntilEnded(child, KILL_WAIT_MS)));
        if (ended.includes(false)) {
          // Stuck in the kernel (a hung disk): its files are left for the next start to try again.
          logger.error({ record: row.id }, 'an abandoned child process did not end when killed');
          continue;
        }
        await removeOutputs(stringArray(row.outputs));
        db.delete(childProcesses).where(eq(childProcesses.id, row.id)).run();
      }
      if (killed > 0) logger.warn({ count: killed }, 'ended processes a server that died left running');
      return killed;
    },
  };
}
