import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const KEY_BYTES = 32;

const hasCode = (error: unknown, code: string) => error instanceof Error && 'code' in error && error.code === code;

/**
 * A server secret of 32 random bytes kept in `file`, made the first time it is asked for. Several
 * server processes may start at once on one data folder: each writes a whole key to a file of its
 * own and links it into place, which only the first one manages; every process then reads the one
 * key in place. Readable by the server's user only.
 */
export function loadOrCreateKey(file: string): Buffer {
  const existing = readKey(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draft, randomBytes(KEY_BYTES), { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if (!hasCode(error, 'EEXIST')) throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  const key = readKey(file);
  if (!key) throw new Error(`${file} disappeared as it was made`);
  return key;
}

function readKey(file: string): Buffer | undefined {
  let key: Buffer;
  try {
    key = fs.readFileSync(file);
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  // A key cut short (a disk that filled up, a copy interrupted) would be easier to guess: refuse it.
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte key: remove it and restart`);
  return key;
}
