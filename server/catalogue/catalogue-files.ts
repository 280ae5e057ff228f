import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { uploadMessages } from '../../shared/schemas/uploads';
import type { uploads } from '../db/schema';
import { isJpegOrPng, renderImage } from '../features/uploads/images';
import { fileChecksum } from '../infra/storage/checksum';
import { audioFormat, isZip } from '../infra/storage/file-types';
import { type MediaStore, newUploadId } from '../infra/storage/media';
import { checkAlbumZip } from '../infra/storage/zip-check';
import type { LegacyColumn, RowProblem } from './legacy-csv';

// A catalogue row's files (its cover, preview track, album zip and artist image), checked as the
// upload routes check what is sent to them (type by content, size caps, images re-encoded by the
// image pipeline, zips by infra/storage/zip-check.ts) and only then put into media storage. The
// upload rows are the caller's to insert, in the transaction that saves the row: until then the
// files are what a crash leaves behind, which start-up removes (removeCrashLeftovers).

const MB = 1024 * 1024;

export type FileKind = 'image' | 'track' | 'zip';

/** A file of the row, found on disk: where it is and how big. */
export type SourceFile = { column: LegacyColumn; kind: FileKind; path: string; bytes: number };

/** A file placed in media storage, with the upload row that will name it (its owner is set when saved). */
export type PlacedFile = {
  column: LegacyColumn;
  upload: Omit<typeof uploads.$inferInsert, 'userId'>;
  stored: string[];
};

/** Thrown while placing: what is wrong with the file, reported on its column. */
export class FileProblem extends Error {
  constructor(readonly problem: RowProblem) {
    super(problem.message);
    this.name = 'FileProblem';
  }
}

const capMb: Record<FileKind, number> = UPLOAD_LIMITS_MB;

/**
 * The file a cell names, relative to the CSV's folder (or absolute): there, a regular file, and
 * within the size cap of its kind. Nothing is read yet.
 */
export async function findSourceFile(
  csvDir: string,
  column: LegacyColumn,
  kind: FileKind,
  cell: string,
): Promise<SourceFile | RowProblem> {
  const file = path.resolve(csvDir, cell);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return { column, message: `There is no file ${file}.` };
  if (!stat.isFile()) return { column, message: `${file} is not a file.` };
  if (stat.size > capMb[kind] * MB) return { column, message: uploadMessages.tooLarge(capMb[kind]) };
  return { column, kind, path: file, bytes: stat.size };
}

async function head(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Checks the file and puts it into media storage under a new upload id. Audio and zips are copied to a temporary file first and that copy is what is checked and
 * kept, so what was checked is what is stored. Throws a FileProblem, leaving nothing behind.
 */
export async function placeFile(media: MediaStore, source: SourceFile): Promise<PlacedFile> {
  const id = newUploadId();
  const originalName = path.basename(source.path).slice(0, 200);
  const refuse = (message: string) => new FileProblem({ column: source.column, message });
  if (source.kind === 'image') {
    const start = await head(source.path);
    if (!isJpegOrPng(start)) throw refuse(uploadMessages.wrongType.image);
    const stored = media.imageFiles(id);
    try {
      await renderImage(source.path, id, media);
    } catch {
      await removeFiles(media, stored);
      throw refuse('The image could not be read. Please choose another file.');
    }
    const format = start[0] === 0xff ? ('jpeg' as const) : ('png' as const);
    return {
      column: source.column,
      upload: { id, kind: 'image', format, originalName, bytes: source.bytes },
      stored,
    };
  }
  const copy = media.tempFile();
  try {
    await fs.copyFile(source.path, copy);
    const start = await head(copy);
    let stored: string;
    let format: 'wav' | 'mp3' | 'zip';
    if (source.kind === 'track') {
      const audio = audioFormat(start);
      if (!audio) throw refuse(uploadMessages.wrongType.track);
      format = audio;
      stored = media.trackFile(id, audio);
    } else {
      if (!isZip(start)) throw refuse(uploadMessages.wrongType.zip);
      const check = await checkAlbumZip(copy);
      if (!check.ok) throw refuse(check.message);
      format = 'zip';
      stored = media.zipFile(id);
    }
    const { crc32, bytes } = await fileChecksum(copy);
    await fs.rename(copy, stored);
    await media.store(stored);
    return {
      column: source.column,
      upload: { id, kind: source.kind, format, originalName, bytes, crc32 },
      stored: [stored],
    };
  } finally {
    await fs.rm(copy, { force: true });
  }
}

/** Removes placed files from the media store (a row that failed after its files were placed). */
export async function removeFiles(media: MediaStore, files: string[]) {
  await Promise.all(files.map((file) => media.remove(file)));
}
