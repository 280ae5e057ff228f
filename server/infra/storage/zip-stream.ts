import fs from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';

// A zip of files on disk, written while it is sent (issue 5, the album download): memory stays
// flat and the first bytes leave at once. Entries are stored, not compressed (audio does not
// compress, and the originals stay byte for byte), so the zip's length is known before any file
// is read and can go in Content-Length. Each file is opened only when its turn comes, and the one
// being read is closed when the response ends early, whether the client went away or a file failed.

/** A file to put in the zip, with the size and time fs.stat gave; a file that changes size fails the zip. */
export type ZipStreamEntry = { path: string; name: string; size: number; mtime: Date };

type Open = (entry: ZipStreamEntry, callback: (error: Error | null, stream: NodeJS.ReadableStream) => void) => void;

function storedZip(entries: ZipStreamEntry[], open: Open) {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.size, mtime: entry.mtime }, (callback) =>
      open(entry, callback),
    );
  }
  let size = -1;
  // With every size known and nothing compressed, yazl works out the total at once. (@types/yazl
  // leaves out the callback's argument.)
  zip.end({ forceZip64Format: false, comment: '' }, (...args: unknown[]) => {
    size = Number(args[0]);
  });
  if (!(size >= 0)) throw new Error('yazl could not work out the size of a stored zip');
  return { zip, size };
}

/** The zip's length in bytes, for HEAD: no file is opened (yazl asks for the first, and is never answered). */
export function zipStreamSize(entries: ZipStreamEntry[]): number {
  return storedZip(entries, () => undefined).size;
}

/**
 * The zip as a response body. `onError` hears of a file that could not be read in full (gone,
 * changed size); the body then fails, so the client sees a broken download rather than a zip
 * that silently lacks a track.
 */
export function zipStream(
  entries: ZipStreamEntry[],
  onError: (error: Error) => void,
): { size: number; body: ReadableStream<Uint8Array> } {
  let current: fs.ReadStream | null = null;
  let over = false;
  let output: Readable | null = null;
  const fail = (error: Error) => {
    if (over) return;
    onError(error);
    output?.destroy(error);
  };
  const { zip, size } = storedZip(entries, (entry, callback) => {
    // A response that is over opens nothing more; yazl waits for this file forever and is dropped.
    if (over) return;
    const stream = fs.createReadStream(entry.path);
    current = stream;
    stream.once('error', fail);
    stream.once('close', () => {
      if (current === stream) current = null;
    });
    callback(null, stream);
  });
  zip.on('error', fail);
  if (!(zip.outputStream instanceof Readable)) throw new Error('yazl output is not a Node stream');
  output = zip.outputStream;
  // Destroyed when the client cancels the body (the connection closed) or by fail(): either way
  // the file being read is closed now, not when the garbage collector gets to it.
  output.once('close', () => {
    over = true;
    current?.destroy();
  });
  return { size, body: Readable.toWeb(output) as ReadableStream<Uint8Array> };
}
