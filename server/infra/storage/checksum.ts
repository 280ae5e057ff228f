import fs from 'node:fs';
import zlib from 'node:zlib';

/**
 * The CRC-32 of a file on disk and the bytes it covers, read a megabyte at a time (memory stays
 * flat): for originals uploaded before their checksum was recorded (uploads.crc32, issue 13).
 */
export async function fileChecksum(path: string): Promise<{ crc32: number; bytes: number }> {
  let crc32 = 0;
  let bytes = 0;
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    crc32 = zlib.crc32(chunk as Buffer, crc32);
    bytes += (chunk as Buffer).length;
  }
  return { crc32, bytes };
}
