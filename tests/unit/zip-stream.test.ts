import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { checkAlbumZip } from '../../server/infra/storage/zip-check';
import { type ZipStreamEntry, zipLayout, zipStream } from '../../server/infra/storage/zip-stream';
import { openDescriptorsOf } from '../fixtures/descriptors';
import { readZip, unzipTest } from '../fixtures/zips';

// The album zip's writer (server/infra/storage/zip-stream.ts, issue 13): stored entries with the
// CRC-32 and size known up front. Whatever it writes must be read back by yauzl, by Info-ZIP's
// unzip (which checks every CRC) and by our own album zip check (local headers and directory
// agree, the data tiles the file), ZIP64 included.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-zip-stream-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function file(data: Buffer): string {
  const at = path.join(dir, `file-${++fileCount}`);
  fs.writeFileSync(at, data);
  return at;
}

const entryOf = (
  at: string,
  name: string,
  data: Buffer,
  mtime = new Date(2024, 4, 17, 13, 45, 30),
): ZipStreamEntry => ({
  path: at,
  name,
  size: data.length,
  mtime,
  crc32: zlib.crc32(data),
});

/** The zip's body written to a file, as a client saves the download. */
async function saved(body: ReadableStream<Uint8Array>): Promise<string> {
  const out = path.join(dir, `zip-${++fileCount}.zip`);
  await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), fs.createWriteStream(out));
  return out;
}

describe('zipStream', () => {
  const songs = [
    { name: '01 - Overture.wav', data: crypto.randomBytes(1_300_000) }, // three reads
    { name: '02 - Café — ünïcode ☕.mp3', data: crypto.randomBytes(10_000) },
    { name: '03 - Silence.wav', data: Buffer.alloc(0) },
  ];

  it('writes a zip yauzl, unzip and the album check read back, CRCs right, as long as announced', async () => {
    const entries = songs.map((song) => entryOf(file(song.data), song.name, song.data));
    const onError = vi.fn();
    const zip = zipStream(entries, onError);
    const out = await saved(zip.body);
    expect(fs.statSync(out).size).toBe(zip.size);
    expect(onError).not.toHaveBeenCalled();

    const read = await readZip(out);
    expect(read.map((entry) => entry.name)).toEqual(songs.map((song) => song.name));
    read.forEach((entry, index) => {
      expect(entry.size, entry.name).toBe(songs[index]!.data.length);
      expect(entry.declaredCrc, entry.name).toBe(zlib.crc32(songs[index]!.data));
      expect(entry.actualCrc, entry.name).toBe(entry.declaredCrc);
      expect(entry.data!.equals(songs[index]!.data), entry.name).toBe(true);
    });
    const tested = unzipTest(out);
    if (tested) expect(tested.ok, tested.output).toBe(true);
    expect(await checkAlbumZip(out)).toMatchObject({ ok: true, summary: { entries: 3, audioEntries: 3 } });
  });

  it('keeps the time of each file, to the second in UTC', async () => {
    const moment = new Date(Date.UTC(2023, 0, 2, 3, 4, 5));
    const out = await saved(zipStream([entryOf(file(songs[1]!.data), 'a.mp3', songs[1]!.data, moment)], vi.fn()).body);
    const zip = await yauzl.openPromise(out, { lazyEntries: true });
    const entry = (await zip.eachEntry().next()).value as yauzl.Entry;
    zip.close();
    // The Info-ZIP "UT" field: seconds since 1970, UTC.
    const field = entry.extraFields.find((extra) => extra.id === 0x5455)!;
    const listing = new Date(field.data.readInt32LE(1) * 1000);
    expect(listing.toISOString()).toBe(moment.toISOString());
  });

  it('writes the checksum it is given: a wrong one is what unzip catches', async () => {
    const data = songs[1]!.data;
    const entry = { ...entryOf(file(data), 'wrong.mp3', data), crc32: (zlib.crc32(data) ^ 1) >>> 0 };
    const out = await saved(zipStream([entry], vi.fn()).body);
    const [read] = await readZip(out);
    expect(read!.actualCrc).not.toBe(read!.declaredCrc);
    const tested = unzipTest(out);
    if (tested) expect(tested.ok).toBe(false);
  });

  it('fails the body, and says so, when a file is not the size announced', async () => {
    const data = songs[1]!.data;
    const at = file(data);
    const entry = entryOf(at, 'grown.mp3', data);
    fs.appendFileSync(at, 'more');
    const onError = vi.fn();
    await expect(saved(zipStream([entry], onError).body)).rejects.toThrow(/bytes now/);
    expect(onError).toHaveBeenCalledOnce();
    await expect.poll(() => openDescriptorsOf(at)).toBe(0);
  });

  it('closes the file being read when the body is cancelled, and reports nothing', async () => {
    const data = crypto.randomBytes(4 * 1024 * 1024);
    const at = file(data);
    const onError = vi.fn();
    const reader = zipStream([entryOf(at, 'long.wav', data)], onError).body.getReader();
    await reader.read(); // the local header
    await reader.read(); // the first bytes of the file: it is open now
    expect(openDescriptorsOf(at)).toBe(1);
    await reader.cancel();
    await expect.poll(() => openDescriptorsOf(at)).toBe(0);
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('zipLayout past 4 GiB', () => {
  it('writes ZIP64 sizes, offsets and end records that unzip and yauzl read', { timeout: 60_000 }, async () => {
    // A 4 GiB file of zeros, sparse on disk, then a small one whose header lies past 4 GiB.
    const bigSize = 2 ** 32 + 4096;
    const big = path.join(dir, 'big.wav');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, bigSize);
    const mib = Buffer.alloc(1024 * 1024);
    let bigCrc = 0;
    for (let done = 0; done < bigSize; done += mib.length)
      bigCrc = zlib.crc32(mib.subarray(0, Math.min(mib.length, bigSize - done)), bigCrc);
    const small = crypto.randomBytes(5000);
    const entries = [
      { ...entryOf(big, '01 - Big.wav', Buffer.alloc(0)), size: bigSize, crc32: bigCrc },
      entryOf(file(small), '02 - Small.wav', small),
    ];

    // The zip as the stream would write it, with the big file's zeros left as a hole.
    const { parts, size } = zipLayout(entries);
    const out = path.join(dir, 'big.zip');
    const fd = fs.openSync(out, 'w');
    let offset = 0;
    for (const part of parts) {
      if (part.kind === 'bytes') fs.writeSync(fd, part.bytes, 0, part.bytes.length, offset);
      else if (part.entry.size < 2 ** 32)
        fs.writeSync(fd, fs.readFileSync(part.entry.path), 0, part.entry.size, offset);
      offset += part.kind === 'bytes' ? part.bytes.length : part.entry.size;
    }
    fs.ftruncateSync(fd, size);
    fs.closeSync(fd);
    expect(offset).toBe(size);

    // The small entry is read and checked past 4 GiB; reading 4 GiB of zeros back proves nothing more.
    const read = await readZip(out, 1024 * 1024, 1024 * 1024);
    expect(
      read.map(({ name, size: bytes, declaredCrc, actualCrc }) => ({ name, bytes, declaredCrc, actualCrc })),
    ).toEqual([
      { name: '01 - Big.wav', bytes: bigSize, declaredCrc: bigCrc, actualCrc: undefined },
      { name: '02 - Small.wav', bytes: small.length, declaredCrc: zlib.crc32(small), actualCrc: zlib.crc32(small) },
    ]);
    expect(read[1]!.data!.equals(small)).toBe(true);
    const tested = unzipTest(out, ['02 - Small.wav']);
    if (tested) expect(tested.ok, tested.output).toBe(true);
  });
});
