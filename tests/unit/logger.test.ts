import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../server/infra/logger';

// The server's JSON logs (server/infra/logger.ts): pino's line shape, written after the turn of
// the event loop that made them, all of them in one write.

afterEach(() => vi.restoreAllMocks());

async function captured(log: () => void) {
  const writes: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  log();
  expect(writes).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  return writes;
}

describe('logger', () => {
  it('writes the lines of one turn of the event loop together, as JSON in pino’s shape', async () => {
    const logger = createLogger('info');
    const writes = await captured(() => {
      logger.info({ requestId: 'r1', path: '/a "quoted" path', status: 200 });
      logger.warn({ count: 2 }, 'ended strays');
      logger.debug({ hidden: true }, 'below the level');
    });
    expect(writes).toHaveLength(1);
    const lines = writes[0]!
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, requestId: 'r1', path: '/a "quoted" path', status: 200 });
    expect(new Date(lines[0]!.time as string).toISOString()).toBe(lines[0]!.time);
    expect(lines[1]).toMatchObject({ level: 40, count: 2, msg: 'ended strays' });
  });

  it('shows an error with its type, message, stack and code, and writes nothing when silent', async () => {
    const error = Object.assign(new TypeError('bad input'), { code: 'E_BAD' });
    const [written] = await captured(() => createLogger('error').error({ err: error, jobId: 7 }, 'job failed'));
    const line = JSON.parse(written!) as { err: Record<string, unknown>; jobId: number; msg: string; level: number };
    expect(line).toMatchObject({ level: 50, jobId: 7, msg: 'job failed' });
    expect(line.err).toMatchObject({ type: 'TypeError', message: 'bad input', code: 'E_BAD' });
    expect(line.err.stack).toContain('bad input');

    expect(await captured(() => createLogger('silent').fatal({ any: 'thing' }, 'never'))).toEqual([]);
  });
});
