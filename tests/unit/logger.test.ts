import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../server/infra/logger';

// The server's JSON logs (server/infra/logger.ts): pino's line shape, gathered and written
// together: a warning or an error at the end of its turn of the event loop, other lines within
// 50 ms.

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function captureWrites() {
  const writes: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  return writes;
}

const linesOf = (writes: string[]) =>
  writes
    .join('')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('logger', () => {
  it('writes a turn’s lines together at its end when one is a warning, as JSON in pino’s shape', async () => {
    const writes = captureWrites();
    const logger = createLogger('info');
    logger.info({ requestId: 'r1', path: '/a "quoted" path', status: 200 });
    logger.warn({ count: 2 }, 'ended strays');
    logger.debug({ hidden: true }, 'below the level');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    const lines = linesOf(writes);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, requestId: 'r1', path: '/a "quoted" path', status: 200 });
    expect(new Date(lines[0]!.time as string).toISOString()).toBe(lines[0]!.time);
    expect(lines[1]).toMatchObject({ level: 40, count: 2, msg: 'ended strays' });
  });

  it('keeps info lines of several turns for one write, within 50 ms', async () => {
    const writes = captureWrites();
    const logger = createLogger('info');
    const started = Date.now();
    logger.info({ n: 1 });
    await nextTurn();
    logger.info({ n: 2 });
    await nextTurn();
    expect(writes).toEqual([]);
    await vi.waitFor(() => expect(writes).toHaveLength(1), { timeout: 1000, interval: 5 });
    // The timer's own delay (libuv counts it from its loop's cached time, so allow a little).
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(linesOf(writes).map((line) => line.n)).toEqual([1, 2]);
  });

  it('writes a warning’s turn at once, with the info lines waiting before it', async () => {
    const writes = captureWrites();
    const logger = createLogger('info');
    logger.info({ n: 1 });
    await nextTurn();
    logger.error({ n: 2 }, 'failed');
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(linesOf(writes).map((line) => line.n)).toEqual([1, 2]);
  });

  it('writes the time exactly as toISOString does, across seconds, days and years', async () => {
    const writes = captureWrites();
    const logger = createLogger('info');
    const times = [
      Date.UTC(2026, 10, 30, 14, 28, 35, 0),
      Date.UTC(2026, 10, 30, 14, 28, 35, 7),
      Date.UTC(2026, 10, 30, 14, 28, 35, 42),
      Date.UTC(2026, 10, 30, 14, 28, 35, 999),
      Date.UTC(2026, 10, 30, 14, 28, 36, 0),
      Date.UTC(2026, 10, 30, 14, 28, 34, 500), // the clock set back
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1),
    ];
    const now = vi.spyOn(Date, 'now');
    for (const [index, time] of times.entries()) {
      now.mockReturnValue(time);
      logger.warn({ index });
    }
    now.mockRestore();
    await nextTurn();
    expect(linesOf(writes).map((line) => line.time)).toEqual(times.map((time) => new Date(time).toISOString()));
  });

  it('shows an error with its type, message, stack and code, and writes nothing when silent', async () => {
    const writes = captureWrites();
    const error = Object.assign(new TypeError('bad input'), { code: 'E_BAD' });
    createLogger('error').error({ err: error, jobId: 7 }, 'job failed');
    await nextTurn();
    const line = JSON.parse(writes[0]!) as { err: Record<string, unknown>; jobId: number; msg: string; level: number };
    expect(line).toMatchObject({ level: 50, jobId: 7, msg: 'job failed' });
    expect(line.err).toMatchObject({ type: 'TypeError', message: 'bad input', code: 'E_BAD' });
    expect(line.err.stack).toContain('bad input');

    createLogger('silent').fatal({ some: 'thing' }, 'never');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toHaveLength(1);
  });
});
