import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { zipLayout } from '../server/infra/storage/zip-stream';

// The client of bench/upload-memory.ts, in a process of its own (forked by it), so the RSS the
// benchmark samples is the server's alone: a 500 MB album zip sent as a multipart form, generated
// as it goes (one 1 MB chunk held at a time). One upload per message, its status back.

export type UploadJob = {
  url: string;
  method: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
};

/** The argument bench/upload-memory.ts forks this file with. */
export const CHILD_FLAG = '--upload-client-child';

const MB = 1024 * 1024;
export const UPLOAD_BYTES = 500 * MB;
/** Bytes that vary, as music does (a stored zip of them is what an album zip of WAVs is like). */
const CHUNK = Buffer.from(Array.from({ length: MB }, (_, i) => (i * 31 + (i >> 9)) & 0xff));
const BOUNDARY = 'BENCHBOUNDARY';

/** One stored WAV entry of UPLOAD_BYTES, its CRC-32 worked out first as the zip's header needs it. */
export function albumZip() {
  let crc32 = 0;
  for (let done = 0; done < UPLOAD_BYTES; done += MB) crc32 = zlib.crc32(CHUNK, crc32);
  const entry = { path: '', name: 'Album/01 Long song.wav', size: UPLOAD_BYTES, mtime: new Date(0), crc32 };
  return zipLayout([entry]);
}

async function* multipartBody(fields: Record<string, string>): AsyncIterable<Uint8Array> {
  for (const [name, value] of Object.entries(fields)) {
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="albumZip"; filename="album.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  for (const part of albumZip().parts) {
    if (part.kind === 'bytes') yield part.bytes;
    else for (let sent = 0; sent < part.entry.size; sent += MB) yield CHUNK;
  }
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

async function upload({ url, method, headers, fields }: UploadJob) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: Readable.toWeb(Readable.from(multipartBody(fields))) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, text: await response.text() };
}

if (process.argv.includes(CHILD_FLAG) && process.send) {
  process.on('message', (job: UploadJob) => {
    upload(job).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
