import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The CRC-32 of a file and the bytes it covers, read a chunk at a time (memory stays flat): for
 * originals uploaded before their checksum was recorded (uploads.crc32, issue 13).
 */
export function fileChecksum(path: string): Promise<{ crc32: number; bytes: number }> {
  return streamChecksum(fs.createReadStream(path, { highWaterMark: 1024 * 1024 }));
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
