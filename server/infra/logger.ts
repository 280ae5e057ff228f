import cluster from 'node:cluster';

// Structured JSON logs on stdout, one line per event (journald and docker collect them as-is), in
// pino's shape ({"level":30,"time":"…",…,"msg":"…"}) so log tools read them the same. Lines are
// gathered and written together: an access line per request then costs no system call of its own
// (issue 13). A write per turn of the event loop was still one for every request or two when a
// few clients keep the server busy, a sixth of an API request's CPU (issue 24), so lines below
// warn wait up to FLUSH_MS for others; a warning or an error goes out at the end of its turn, as
// what came before it does. What is left is written before the process exits. Each line names
// its process (pid, as pino does): with WEB_CONCURRENCY several servers write to the same journal.

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

export type LevelName = keyof typeof LEVELS;
export type LevelWithSilent = LevelName | 'silent';
type LogFn = (fields: Record<string, unknown>, msg?: string) => void;
export type Logger = Record<LevelName, LogFn>;

/** An Error as pino's serializer shows it: its type, message, stack and own fields (code, …). */
function serializeError(error: Error): Record<string, unknown> {
  return { ...error, type: error.name, message: error.message, stack: error.stack };
}

/** The fields with their errors serialized (JSON.stringify sees none of an Error's own). */
function withErrors(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key in fields) {
    if (fields[key] instanceof Error) {
      const copy: Record<string, unknown> = {};
      for (const name in fields) {
        const value = fields[name];
        copy[name] = value instanceof Error ? serializeError(value) : value;
      }
      return copy;
    }
  }
  return fields;
}

let pending = '';
/** The write due for what is pending: at the end of this turn, or after FLUSH_MS at the latest. */
let scheduled: { kind: 'turn'; handle: NodeJS.Immediate } | { kind: 'timer'; handle: NodeJS.Timeout } | undefined;

/** How long an info line may wait for others to be written with. */
const FLUSH_MS = 50;
/** Pending lines beyond this size are written at the end of the turn, whatever their level. */
const FLUSH_BYTES = 16 * 1024;

/**
 * A pipe takes a write of up to PIPE_BUF bytes whole, but a longer one may be interleaved with
 * another process's: servers sharing one stdout (several processes) write in pieces that size,
 * cut between lines, so no line is ever mixed with another's.
 */
const PIPE_BUF = 4096;
const sharesOutput = cluster.isWorker;
const NEWLINE = 0x0a;

function flush() {
  if (scheduled?.kind === 'turn') clearImmediate(scheduled.handle);
  else if (scheduled) clearTimeout(scheduled.handle);
  scheduled = undefined;
  if (pending === '') return;
  const lines = pending;
  pending = '';
  // Up to PIPE_BUF / 4 characters are at most PIPE_BUF bytes of UTF-8: no need to cut.
  if (!sharesOutput || lines.length <= PIPE_BUF / 4) {
    process.stdout.write(lines);
    return;
  }
  const bytes = Buffer.from(lines);
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.lastIndexOf(NEWLINE, start + PIPE_BUF - 1) + 1;
    // A line longer than PIPE_BUF goes alone.
    if (end <= start) end = bytes.indexOf(NEWLINE, start) + 1 || bytes.length;
    process.stdout.write(bytes.subarray(start, end));
    start = end;
  }
}
// stdout to a file or a pipe is written synchronously on Linux, so this lands before the exit.
process.on('exit', flush);

function write(line: string, soon: boolean) {
  pending += line;
  if (soon || pending.length >= FLUSH_BYTES) {
    if (scheduled?.kind === 'turn') return;
    if (scheduled) clearTimeout(scheduled.handle);
    scheduled = { kind: 'turn', handle: setImmediate(flush) };
  } else if (!scheduled) {
    // Unref'd: a command that has nothing else to do exits at once, and 'exit' writes the rest.
    scheduled = { kind: 'timer', handle: setTimeout(flush, FLUSH_MS).unref() };
  }
}

/**
 * The time as toISOString writes it, from the second's text made once a second: formatting a
 * Date took a microsecond, more than the rest of an access line.
 */
let secondStart = -1;
let secondText = '';
function isoTime(now: number): string {
  if (secondStart < 0 || now < secondStart || now - secondStart >= 1000) {
    secondStart = Math.floor(now / 1000) * 1000;
    // "2026-11-30T14:28:35.": the date and the time to the second, with its dot.
    secondText = new Date(secondStart).toISOString().slice(0, 20);
  }
  const ms = now - secondStart;
  return `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

export function createLogger(level: LevelWithSilent): Logger {
  const threshold = level === 'silent' ? Infinity : LEVELS[level];
  const logger = {} as Logger;
  for (const [name, value] of Object.entries(LEVELS) as [LevelName, number][]) {
    logger[name] =
      value < threshold
        ? () => undefined
        : (fields, msg) => {
            let body: string;
            try {
              body = JSON.stringify(withErrors(fields));
            } catch (error) {
              body = JSON.stringify({ logError: String(error) });
            }
            const head = `{"level":${value},"time":"${isoTime(Date.now())}","pid":${process.pid}`;
            const rest = body.length > 2 ? `,${body.slice(1, -1)}` : '';
            write(`${head}${rest}${msg === undefined ? '' : `,"msg":${JSON.stringify(msg)}`}}\n`, value >= LEVELS.warn);
          };
  }
  return logger;
}
