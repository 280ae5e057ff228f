import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';

// A zip of files on disk, written while it is sent (issue 5, the album download): memory stays
// flat and the first bytes leave at once. Entries are stored, not compressed (audio does not
// compress, and the originals stay byte for byte), and each file's CRC-32 and size are known
// before the zip starts (recorded as the file was uploaded: uploads.crc32), so the zip is written
// in one pass with them in the local headers, no data descriptors, and no byte is checksummed as
// it is sent (issue 13: the JavaScript CRC of a zip library held the download to a third of the
// speed of reading the files). The zip's length is known up front for Content-Length.
//
// The format (PKWARE APPNOTE 6.3.10): per file a local header (4.3.7), its bytes, then the central
// directory (4.3.12) and its end record (4.3.16). Names are UTF-8 (flag bit 11). ZIP64 (4.3.14,
// 4.3.15, 4.5.3) for a file of 4 GiB or more, a header past 4 GiB, or a directory out of the end
// record's reach. Each file is opened only when its turn comes, and the one being read is closed
// when the response ends early, whether the client went away or a file failed.

/** A file to put in the zip: its size as fs.stat gave it and its CRC-32; a file that changed size fails the zip. */
export type ZipStreamEntry = { path: string; name: string; size: number; mtime: Date; crc32: number };

/** The zip in order: bytes made here (headers, the directory) and the files' own bytes. */
export type ZipPart = { kind: 'bytes'; bytes: Buffer } | { kind: 'file'; entry: ZipStreamEntry };

/** Bytes read from a file at a time: few reads, and never more than two of them in memory per download. */
const CHUNK_BYTES = 512 * 1024;

/** A 32-bit field holds up to this; from here on the value goes in a ZIP64 field (APPNOTE 4.4.8). */
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
const UTF8_NAMES = 1 << 11;
const STORED = 0;
/** Version needed (APPNOTE 4.4.3): 2.0 for a plain file, 4.5 with ZIP64. Made by: Unix, 6.3. */
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
const MADE_BY_UNIX = (3 << 8) | 63;
/** A regular file, rw-r--r--, in the high half of the external attributes (Unix "made by"). */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

/**
 * The DOS date and time of the headers (APPNOTE 4.4.6), in local time as every unzip reads them,
 * to two seconds; the Info-ZIP extended timestamp in the directory gives the exact UTC second.
 */
function dosDateTime(moment: Date) {
  const min = new Date(1980, 0, 1);
  const max = new Date(2107, 11, 31, 23, 59, 58);
  const when = moment < min ? min : moment > max ? max : moment;
  return {
    date: (when.getDate() & 0x1f) | (((when.getMonth() + 1) & 0xf) << 5) | (((when.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(when.getSeconds() / 2) | ((when.getMinutes() & 0x3f) << 5) | ((when.getHours() & 0x1f) << 11),
  };
}

/** The Info-ZIP "UT" extra field of a directory record: the modification time in UTC seconds. */
function extendedTimestamp(moment: Date): Buffer {
  const field = Buffer.alloc(9);
  field.writeUInt16LE(0x5455, 0);
  field.writeUInt16LE(5, 2);
  // Modification (and access, as Info-ZIP sets it; the directory's copy never holds that time).
  field.writeUInt8(0b11, 4);
  const seconds = Math.floor(moment.getTime() / 1000);
  field.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, seconds)), 5);
  return field;
}

/** The ZIP64 extended information extra field (APPNOTE 4.5.3) holding these 8-byte values. */
function zip64Field(values: number[]): Buffer {
  const field = Buffer.alloc(4 + values.length * 8);
  field.writeUInt16LE(0x0001, 0);
  field.writeUInt16LE(values.length * 8, 2);
  values.forEach((value, index) => field.writeBigUInt64LE(BigInt(value), 4 + index * 8));
  return field;
}

function localHeader(entry: ZipStreamEntry, name: Buffer): Buffer {
  const { date, time } = dosDateTime(entry.mtime);
  // The local copy needs ZIP64 for the sizes only; where the header sits is the directory's business.
  const zip64 = entry.size >= MAX_32;
  const extra = zip64 ? zip64Field([entry.size, entry.size]) : Buffer.alloc(0);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(STORED, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(entry.crc32 >>> 0, 14);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 18); // compressed size
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 22); // uncompressed size
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, name, extra]);
}

function directoryRecord(entry: ZipStreamEntry, name: Buffer, offset: number): Buffer {
  const { date, time } = dosDateTime(entry.mtime);
  // Past 4 GiB all three go in the ZIP64 field, each marked in its own place (as Info-ZIP reads them).
  const zip64 = entry.size >= MAX_32 || offset >= MAX_32;
  const extra = Buffer.concat([
    extendedTimestamp(entry.mtime),
    zip64 ? zip64Field([entry.size, entry.size, offset]) : Buffer.alloc(0),
  ]);
  const record = Buffer.alloc(46);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(MADE_BY_UNIX, 4);
  record.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 6);
  record.writeUInt16LE(UTF8_NAMES, 8);
  record.writeUInt16LE(STORED, 10);
  record.writeUInt16LE(time, 12);
  record.writeUInt16LE(date, 14);
  record.writeUInt32LE(entry.crc32 >>> 0, 16);
  record.writeUInt32LE(zip64 ? MAX_32 : entry.size, 20);
  record.writeUInt32LE(zip64 ? MAX_32 : entry.size, 24);
  record.writeUInt16LE(name.length, 28);
  record.writeUInt16LE(extra.length, 30);
  record.writeUInt16LE(0, 32); // comment length
  record.writeUInt16LE(0, 34); // disk number
  record.writeUInt16LE(0, 36); // internal attributes
  record.writeUInt32LE(FILE_ATTRIBUTES, 38);
  record.writeUInt32LE(zip64 ? MAX_32 : offset, 42);
  return Buffer.concat([record, name, extra]);
}

/**
 * The end of the central directory (APPNOTE 4.3.16), preceded by its ZIP64 record and locator
 * (4.3.14, 4.3.15) when a count, the directory's size or its offset does not fit: the plain record
 * then says so with its fields all at their maximum, which is what makes readers look for ZIP64.
 */
function endRecords(count: number, directorySize: number, directoryOffset: number): Buffer {
  const zip64 = count >= MAX_16 || directorySize >= MAX_32 || directoryOffset >= MAX_32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4); // this disk
  end.writeUInt16LE(0, 6); // the directory's disk
  end.writeUInt16LE(zip64 ? MAX_16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX_32 : directorySize, 12);
  end.writeUInt32LE(zip64 ? MAX_32 : directoryOffset, 16);
  end.writeUInt16LE(0, 20); // comment length
  if (!zip64) return end;

  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4); // the size of what follows this field
  record.writeUInt16LE(MADE_BY_UNIX, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  record.writeUInt32LE(0, 16); // this disk
  record.writeUInt32LE(0, 20); // the directory's disk
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeUInt32LE(0, 4); // the ZIP64 record's disk
  locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
  locator.writeUInt32LE(1, 16); // disks in all
  return Buffer.concat([record, locator, end]);
}

/** The zip's parts in order, and its length: every header is made here, before any file is read. */
export function zipLayout(entries: ZipStreamEntry[]): { parts: ZipPart[]; size: number } {
  const parts: ZipPart[] = [];
  const records: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.size) || entry.size < 0) throw new Error(`bad size for ${entry.name}`);
    const name = Buffer.from(entry.name, 'utf8');
    if (name.length > MAX_16) throw new Error(`name too long: ${entry.name.slice(0, 40)}…`);
    const header = localHeader(entry, name);
    records.push(directoryRecord(entry, name, offset));
    parts.push({ kind: 'bytes', bytes: header }, { kind: 'file', entry });
    offset += header.length + entry.size;
  }
  const directory = Buffer.concat(records);
  parts.push({
    kind: 'bytes',
    bytes: Buffer.concat([directory, endRecords(entries.length, directory.length, offset)]),
  });
  return {
    parts,
    size: parts.reduce((sum, part) => sum + (part.kind === 'bytes' ? part.bytes.length : part.entry.size), 0),
  };
}

/** The zip's length in bytes, for HEAD: no file is opened. */
export function zipStreamSize(entries: ZipStreamEntry[]): number {
  return zipLayout(entries).size;
}

/** An entry's bytes being read in order: `read` fills `into` with up to `length` of the next ones (0: none left). */
export type EntryReader = { size: number; read(into: Buffer, length: number): Promise<number>; close(): void };

/** Opens an entry's file for reading (files on local disk, or objects in a bucket: storedEntries). */
export type OpenEntry = (entry: ZipStreamEntry) => Promise<EntryReader>;

const open = (path: string) =>
  new Promise<{ fd: number; size: number }>((resolve, reject) =>
    fs.open(path, 'r', (error, fd) => {
      if (error) return reject(error);
      fs.fstat(fd, (statError, stats) => {
        if (statError) {
          fs.close(fd, () => undefined);
          reject(statError);
        } else resolve({ fd, size: stats.size });
      });
    }),
  );

const readAt = (fd: number, buffer: Buffer, length: number, position: number) =>
  new Promise<number>((resolve, reject) =>
    fs.read(fd, buffer, 0, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );

/** A file on local disk, read through its descriptor (issue 13: the fastest way node:fs has). */
const openLocalFile: OpenEntry = async (entry) => {
  const { fd, size } = await open(entry.path);
  let position = 0;
  return {
    size,
    async read(into, length) {
      const bytesRead = await readAt(fd, into, length, position);
      position += bytesRead;
      return bytesRead;
    },
    close: () => fs.close(fd, () => undefined),
  };
};

/**
 * Entries read from a stream each (an object in a bucket): `read` hands on what the stream gave,
 * a chunk at a time. `readStored` answers null for an entry that is not there.
 */
export function storedEntries(readStored: (path: string) => Promise<Readable | null>): OpenEntry {
  return async (entry) => {
    const stream = await readStored(entry.path);
    if (!stream) throw new Error(`${entry.path} is not in the media store`);
    const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let pending: Buffer = Buffer.alloc(0);
    return {
      size: entry.size,
      async read(into, length) {
        if (pending.length === 0) {
          const next = await chunks.next();
          if (next.done) return 0;
          pending = next.value;
        }
        const taken = Math.min(length, pending.length);
        pending.copy(into, 0, 0, taken);
        pending = pending.subarray(taken);
        return taken;
      },
      close: () => stream.destroy(),
    };
  };
}

/** The zip's next bytes; for a file's, also the buffer they were read into. */
type Read = { bytes: Uint8Array; buffer?: Buffer };

/**
 * The zip's bytes in order: the parts made here as they are, each file a read at a time into a
 * buffer the caller gives. Each file is opened only when its turn comes; `close` closes the one
 * being read. A file that could not be read in full (gone, changed size) fails the read.
 */
class ZipReader {
  #next = 0;
  /** The file being read and how far it has been read. */
  #current: { file: EntryReader; position: number } | null = null;

  constructor(
    private readonly parts: ZipPart[],
    private readonly openEntry: OpenEntry,
  ) {}

  /** The next bytes of the zip, or null at its end; a file's are read into `buffer()`. */
  async read(buffer: (bytes: number) => Buffer | Promise<Buffer>): Promise<Read | null> {
    for (;;) {
      const part = this.parts[this.#next];
      if (!part) return null;
      if (part.kind === 'bytes') {
        this.#next++;
        return { bytes: part.bytes };
      }
      const { entry } = part;
      if (!this.#current) {
        if (entry.size === 0) {
          this.#next++;
          continue;
        }
        const opened = await this.openEntry(entry);
        this.#current = { file: opened, position: 0 };
        if (opened.size !== entry.size) {
          throw new Error(`${entry.path} is ${opened.size} bytes now, not the ${entry.size} the zip announced`);
        }
      }
      const current = this.#current;
      const into = await buffer(Math.min(CHUNK_BYTES, entry.size - current.position));
      const bytesRead = await current.file.read(into, Math.min(into.length, entry.size - current.position));
      if (bytesRead === 0) throw new Error(`${entry.path} ended before the ${entry.size} bytes the zip announced`);
      current.position += bytesRead;
      if (current.position === entry.size) {
        this.close();
        this.#next++;
      }
      return { bytes: into.subarray(0, bytesRead), buffer: into };
    }
  }

  close() {
    this.#current?.file.close();
    this.#current = null;
  }
}

/**
 * Buffers used again and again, each once the socket has taken what was written from it: one is
 * read into while the other is sent, and the gigabyte of an album passes through the same two,
 * not through a new buffer per read that lingers until the garbage collector comes (issue 13:
 * peak memory rose by up to 55 MB with fresh buffers).
 */
class BufferPool {
  #free: Buffer[] = [];
  #made = 0;
  #stopped = false;
  #waiting: (() => void) | null = null;

  constructor(
    private readonly size: number,
    private readonly count: number,
  ) {}

  /** A free buffer; waits for one to come back when all are out. Fails with StoppedWriting once stopped. */
  async take(): Promise<Buffer> {
    for (;;) {
      if (this.#stopped) throw new StoppedWriting();
      const free = this.#free.pop();
      if (free) return free;
      if (this.#made < this.count) {
        this.#made++;
        return Buffer.allocUnsafe(this.size);
      }
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
  }

  give(buffer: Buffer) {
    this.#free.push(buffer);
    this.#wake();
  }

  /** Nothing more will be written: a take waiting for a buffer, or any later one, fails. */
  stop() {
    this.#stopped = true;
    this.#wake();
  }

  #wake() {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }
}

/** The response closed while the zip was being written: nobody is there to write to. */
class StoppedWriting extends Error {}

/**
 * The zip as a response body. `onError` hears of a file that could not be read in full (gone,
 * changed size); the body then fails, so the client sees a broken download rather than a zip
 * that silently lacks a track. `writeTo` writes the same bytes straight to a Node response (see
 * there); `body` is for everything else (an in-process request).
 */
export function zipStream(
  entries: ZipStreamEntry[],
  onError: (error: Error) => void,
  openEntry: OpenEntry = openLocalFile,
): { size: number; body: ReadableStream<Uint8Array>; writeTo: (out: Writable) => Promise<void> } {
  const { parts, size } = zipLayout(entries);
  const fail = (error: unknown) => {
    const failure = error instanceof Error ? error : new Error(String(error));
    onError(failure);
    return failure;
  };
  return {
    size,
    body: webStream(new ZipReader(parts, openEntry), fail),
    writeTo: (out) => writeZip(new ZipReader(parts, openEntry), parts, out, fail),
  };
}

function webStream(reader: ZipReader, fail: (error: unknown) => Error): ReadableStream<Uint8Array> {
  // Busy with a file (opening or reading it): a cancel then leaves its closing to the read, so
  // the descriptor's number cannot be given to another file while the read still uses it.
  let busy = false;
  let over = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let read: Read | null;
        busy = true;
        try {
          read = await reader.read((bytes) => Buffer.allocUnsafe(bytes));
        } catch (error) {
          busy = false;
          reader.close();
          if (over) return;
          over = true;
          controller.error(fail(error));
          return;
        }
        busy = false;
        if (over) {
          reader.close(); // cancelled while the file was being read
          return;
        }
        if (read) controller.enqueue(read.bytes);
        else {
          over = true;
          controller.close();
        }
      },
      // The client went away (@hono/node-server cancels the body when its connection closes).
      cancel() {
        over = true;
        if (!busy) reader.close();
      },
    },
    // Nothing is read before someone reads: under Node the zip goes through writeTo, and this
    // body is cancelled unread (a first read would open a file, or start a GET from a bucket).
    { highWaterMark: 0 },
  );
}

/**
 * Writes the zip to a Node response through two reused buffers: a buffer is read into again only
 * once the write from it has called back, which Node does when the socket has taken its bytes (a
 * web stream says nothing of when its consumer is done with a chunk, so it needs a new buffer per
 * read). Two buffers out at most is also the backpressure. Stops, closing the file, when the
 * response closes early (the client went away); a file that fails ends the response broken.
 */
async function writeZip(
  reader: ZipReader,
  parts: ZipPart[],
  out: Writable,
  fail: (error: unknown) => Error,
): Promise<void> {
  const largestFile = Math.max(0, ...parts.map((part) => (part.kind === 'file' ? part.entry.size : 0)));
  const pool = new BufferPool(Math.min(CHUNK_BYTES, largestFile), 2);
  const stop = () => pool.stop();
  out.once('close', stop);
  if (out.destroyed) stop();
  try {
    for (let read = await reader.read(() => pool.take()); read; read = await reader.read(() => pool.take())) {
      if (out.destroyed) return;
      const { buffer } = read;
      // Called back once the socket is done with the bytes, sent or failed: the buffer is free.
      if (buffer) out.write(read.bytes, () => pool.give(buffer));
      else out.write(read.bytes);
    }
    if (!out.destroyed) out.end();
  } catch (error) {
    if (!(error instanceof StoppedWriting) && !out.destroyed) out.destroy(fail(error));
  } finally {
    reader.close();
    out.off('close', stop);
  }
}
