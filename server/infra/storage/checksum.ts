import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** How much of a file is read at a time: few reads, one buffer. */
const READ_BYTES = 1024 * 1024;

/**
 * The CRC-32 of a file and the bytes it covers, read into one buffer over and over: a file of
 * any size costs 1 MB, and no garbage for the collector to catch up with (issue 27: a 1 GB album
 * checksummed as it is prepared must not grow the server). For originals uploaded before their
 * checksum was recorded (uploads.crc32, issue 13), catalogue imports and prepared transcodes.
 */
export async function fileChecksum(path: string): Promise<{ crc32: number; bytes: number }> {
  const handle = await fs.promises.open(path, 'r');
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let crc32 = 0;
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, bytes);
      if (bytesRead === 0) break;
      crc32 = zlib.crc32(buffer.subarray(0, bytesRead), crc32);
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return { crc32, bytes };
}

/** The CRC-32 of what a stream gives (an object read from the media store) and its length. */
export async function streamChecksum(stream: Readable): Promise<{ crc32: number; bytes: number }> {
  let crc32 = 0;
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    crc32 = zlib.crc32(chunk, crc32);
    bytes += chunk.length;
  }
  return { crc32, bytes };
}
