import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { AppError, invalid, unsupportedMedia } from '../../errors';

/** A file received: where it is, the name it had, its size, its first bytes and its CRC-32. */
export type ReceivedFile = { tempFile: string; originalName: string; bytes: number; head: Buffer; crc32: number };

type Options = { field: string; maxBytes: number; tempFile: string; tooLargeMessage: string };

type FormOptions = Options & { fileRequired: boolean; maxFields: number };

export type ReceivedForm = { file: ReceivedFile | undefined; fields: Record<string, string> };

/** What a route hands over: the raw body stream and its content type, nothing of HTTP beyond. */
export type MultipartBody = { body: ReadableStream<Uint8Array> | null; contentType: string };

/**
 * Streams the one file of a multipart request to `tempFile`, never holding it in memory, and
 * keeps its first bytes for the type check and its CRC-32 (the album zip's, issue 13: zlib's own,
 * native, costs next to nothing as the bytes pass). Oversized, truncated or malformed uploads end as a
 * clear 4xx with the partial file removed.
 */
export async function receiveSingleFile(request: MultipartBody, options: Options): Promise<ReceivedFile> {
  const { file } = await receiveForm(request, { ...options, fileRequired: true, maxFields: 10 });
  return file!;
}

/** The text fields of a multipart form (each at most 64 KB) and its one optional file, streamed as above. */
export function receiveForm(
  { body, contentType }: MultipartBody,
  { field, maxBytes, tempFile, tooLargeMessage, fileRequired, maxFields }: FormOptions,
) {
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw unsupportedMedia('Please send the file as multipart/form-data.');
  }
  if (!body) throw invalid('Please choose a file to upload.');

  return new Promise<ReceivedForm>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let parser: BusboyInstance;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fileSize: maxBytes, fields: maxFields, fieldSize: 64 * 1024, parts: maxFields + 2 },
      });
    } catch {
      reject(invalid('The upload could not be read. Please try again.'));
      return;
    }
    const input = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
    let settled = false;
    let received: ReceivedFile | undefined;
    let writing: Promise<void> | undefined;
    let out: fs.WriteStream | undefined;
    let current: Readable | undefined;

    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      if (current && out) current.unpipe(out);
      current?.resume();
      input.unpipe(parser);
      input.resume(); // drain what the client still sends, so it gets our answer
      const removePartial = () => fs.rm(tempFile, { force: true }, () => reject(error));
      // The file may still be opening: remove it only once the stream has closed, or the open
      // would create it again afterwards.
      if (out && !out.closed) {
        out.once('close', removePartial);
        out.destroy();
      } else {
        removePartial();
      }
    };

    parser.on('file', (name, file, filename) => {
      // Once the form is refused, later parts are drained and never written: a file part that
      // arrives after the failure (a too-long field, a wrong name) must not leave a file behind.
      if (settled) {
        file.resume();
        return;
      }
      if (name !== field || received || writing) {
        file.resume();
        if (name !== field) fail(invalid(`Please send the file in the "${field}" field.`));
        return;
      }
      const chunks: Buffer[] = [];
      let headLength = 0;
      let bytes = 0;
      let crc32 = 0;
      const stream = fs.createWriteStream(tempFile, { flags: 'wx' });
      out = stream;
      current = file;
      writing = new Promise<void>((done, broke) => {
        stream.on('finish', done);
        stream.on('error', broke);
      });
      // After a failure nobody waits for the write; its error is already answered.
      writing.catch(() => undefined);
      file.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        crc32 = zlib.crc32(chunk, crc32);
        if (headLength < 16) {
          chunks.push(chunk);
          headLength += chunk.length;
        }
      });
      file.on('limit', () => fail(new AppError('too-large', 'OTHER', tooLargeMessage)));
      file.on('error', () => fail(invalid('The upload was interrupted. Please try again.')));
      file.pipe(stream);
      file.on('end', () => {
        received = {
          tempFile,
          originalName: filename ?? '',
          bytes,
          head: Buffer.concat(chunks).subarray(0, 16),
          crc32,
        };
      });
    });
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (settled) return;
      if (valueTruncated) fail(invalid(`The field "${name.slice(0, 40)}" is too long.`));
      else fields[name] = value;
    });
    parser.on('fieldsLimit', () => fail(invalid('The form has too many fields.')));
    parser.on('filesLimit', () => fail(invalid('Please upload a single file.')));
    parser.on('partsLimit', () => fail(invalid('Please upload a single file.')));
    parser.on('error', () => fail(invalid('The upload was interrupted. Please try again.')));
    parser.on('finish', () => {
      if (settled) return;
      if (!received || !writing) {
        if (fileRequired || writing) {
          fail(invalid('Please choose a file to upload.'));
        } else {
          settled = true;
          resolve({ file: undefined, fields });
        }
        return;
      }
      const file = received;
      writing.then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ file, fields });
        },
        () => fail(invalid('The upload could not be stored. Please try again.')),
      );
    });
    input.on('error', () => fail(invalid('The upload was interrupted. Please try again.')));
    input.pipe(parser);
  });
}
