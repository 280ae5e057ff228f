import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { ALBUM_ZIP_LIMITS } from '../../../shared/constants';

// Issue 5: a legacy album zip is checked before it is stored. Buyers and admins unzip it later
// with whatever tool they have: a name that climbs out of the folder, an absolute path, a name
// Windows cannot write or a symlink could then write anywhere on their disk ("zip slip"), and a
// zip bomb could fill it. Tools disagree about where a zip's truth is (the central directory, the
// local headers read front to back, the end record's count), so the check makes them agree:
// - the end record, the central directory and the local headers describe the same entries, and
//   the listed entries' local data covers the file from its first byte to the directory, so no
//   entry hides where only a streaming extractor would find it (APPNOTE 4.3.6);
// - every name any of them gives is safe to create on Unix, macOS and Windows;
// - every entry is decompressed once (nothing is written, memory stays flat), so the 2 GB limit
//   counts the bytes that really come out, not the sizes the zip claims, and damage shows.

const GB = 1024 * 1024 * 1024;
const audioList = ALBUM_ZIP_LIMITS.audioExtensions.join(', ').replace(/, (?=[^,]*$)/, ' or ');

export const albumZipMessages = {
  unreadable: 'The zip could not be read. It may be damaged or incomplete: please zip your songs again.',
  tooManyEntries: `The zip holds more than ${ALBUM_ZIP_LIMITS.entries} files.`,
  tooLarge: `The songs in the zip add up to more than ${ALBUM_ZIP_LIMITS.uncompressedBytes / GB} GB once unzipped.`,
  encrypted: 'The zip is password-protected. Please upload a zip without a password.',
  unsupportedMethod:
    'The zip uses a kind of compression we cannot read. Please zip your songs again with your computer’s built-in zip tool.',
  noAudio: `The zip holds no audio files (${audioList}).`,
  badPath: (name: string) => `The zip contains a file path that is not allowed: ${shown(name)}`,
  link: (name: string) => `The zip contains a shortcut (symbolic link), which is not allowed: ${shown(name)}`,
  notMusic: (name: string) => `The zip contains a file that is not audio, an image, text or a PDF: ${shown(name)}`,
};

/** What the zip holds, for the caller to log or keep. */
export type AlbumZipSummary = { entries: number; audioEntries: number; uncompressedBytes: number };

export type AlbumZipCheck = { ok: true; summary: AlbumZipSummary } | { ok: false; message: string };

const refuse = (message: string): AlbumZipCheck => ({ ok: false, message });

// C0 controls, DEL and C1 controls: invisible in file managers, and a newline or escape in a
// name can forge lines in terminals and logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Names Windows keeps for devices, alone or with an extension ("NUL.wav"): creating one opens the
 * device instead of a file (Microsoft's "Naming Files, Paths, and Namespaces").
 */
const RESERVED_DEVICE = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³]) *(\..*)?$/i;

/**
 * Bidirectional controls (embeddings, overrides, isolates and marks): invisible, they reorder
 * what is shown, so "song\u202Evaw.exe" is displayed as "songexe.wav" (Trojan Source, CVE-2021-42574).
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A name as a person can read it in a message: controls made visible, very long names cut. */
function shown(name: string) {
  // eslint-disable-next-line no-control-regex
  const visible = name.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
  return visible.length > 120 ? `${visible.slice(0, 119)}…` : visible;
}

/**
 * Whether an entry name is unsafe to extract. Backslashes count: Windows tools treat them as
 * folders. A ':' is a drive ("C:x") or an NTFS stream ("song.wav:hidden"); Windows drops a
 * trailing '.' or ' ', so "x." would land on "x" (and ". ." on the folder itself).
 */
function unsafePath(name: string) {
  if (
    name === '' ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes(':') ||
    CONTROL.test(name) ||
    BIDI.test(name)
  ) {
    return true;
  }
  return name
    .split('/')
    .some((part) => part === '..' || (part !== '' && (/[. ]$/.test(part) || RESERVED_DEVICE.test(part))));
}

/** Finder and other tools add these beside the music; they are not songs, whatever their names. */
function isClutter(name: string) {
  const parts = name.split('/');
  return parts[0] === '__MACOSX' || parts.some((part) => part.startsWith('.'));
}

function isAudio(name: string) {
  const lower = name.toLowerCase();
  return !name.endsWith('/') && ALBUM_ZIP_LIMITS.audioExtensions.some((extension) => lower.endsWith(extension));
}

const hasExtension = (name: string, extensions: readonly string[]) =>
  extensions.some((extension) => name.toLowerCase().endsWith(extension));

/**
 * What an album may hold: folders, audio, and its artwork, notes and lyrics. A program, a script
 * or a shortcut has no place in it, and a buyer unzipping it should never find one (issue 9).
 * Finder's clutter passes: `.DS_Store`, and `__MACOSX/` copies (`._name`) of files that pass.
 */
function isAllowedEntry(name: string): boolean {
  if (name.endsWith('/')) return true;
  const base = name.split('/').at(-1)!;
  if (base === '.DS_Store') return true;
  if (name.split('/')[0] === '__MACOSX') return base.startsWith('._') && isAllowedEntry(base.slice(2));
  return hasExtension(base, ALBUM_ZIP_LIMITS.audioExtensions) || hasExtension(base, ALBUM_ZIP_LIMITS.otherExtensions);
}

/** Unix symlink entries (made by Info-ZIP with -y): type bits in the high half of the attributes. */
function isSymlink(entry: yauzl.Entry) {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  return madeOnUnix && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/** Info-ZIP Unicode Path extra field (APPNOTE 4.6.9): a UTF-8 name that most tools prefer. */
const UNICODE_PATH = 0x7075;

/**
 * Every name the Unicode Path fields hold. yauzl ignores one whose CRC does not match the plain
 * name (as the spec says); a careless tool might not, so those are checked too.
 */
function unicodePathNames(fields: yauzl.ExtraField[]) {
  return fields
    .filter((field) => field.id === UNICODE_PATH && field.data.length >= 5)
    .map((field) => field.data.subarray(5).toString('utf8'));
}

/** Why an entry's names (central directory and local header) cannot be stored, or null. */
function nameProblem(entry: yauzl.Entry): string | null {
  // Every name an extracting tool might use: the plain one, and the Unicode Path one.
  const plain = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, [], true);
  const unicode = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
  const names = new Set([plain, unicode, ...unicodePathNames(entry.extraFields)]);
  for (const name of names) {
    if (unsafePath(name)) return albumZipMessages.badPath(name);
  }
  for (const name of names) {
    if (!isAllowedEntry(name)) return albumZipMessages.notMusic(name);
  }
  // Names not flagged as UTF-8 decode as CP437, where control bytes become glyphs; tools that
  // extract raw bytes would still write the control characters.
  if (entry.fileNameRaw.some((byte) => byte < 0x20 || byte === 0x7f)) {
    return albumZipMessages.badPath(entry.fileNameRaw.toString('latin1'));
  }
  if (isSymlink(entry)) return albumZipMessages.link(plain);
  return null;
}

/**
 * Streaming extractors read the local header instead of the directory: it must carry the same
 * name, and the same Unicode Path name, or the checks above would not be the ones that count.
 */
function localProblem(entry: yauzl.Entry, local: yauzl.LocalFileHeader): string | null {
  if (!local.fileName.equals(entry.fileNameRaw)) return albumZipMessages.unreadable;
  const fields = yauzl.parseExtraFields(local.extraField);
  for (const name of unicodePathNames(fields)) {
    if (unsafePath(name)) return albumZipMessages.badPath(name);
  }
  const central = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
  const own = yauzl.getFileNameLowLevel(local.generalPurposeBitFlag, local.fileName, fields, true);
  return own === central ? null : albumZipMessages.unreadable;
}

const SIGNATURE = { end: 0x06054b50, zip64End: 0x06064b50, zip64Locator: 0x07064b50, descriptor: 0x08074b50 };
const CENTRAL_HEADER_BYTES = 46;
const END_RECORD_BYTES = 22;
const ZIP64_LOCATOR_BYTES = 20;

/** Where the end record puts the central directory, and where the directory must end. */
type EndRecord = { entries: number; directoryOffset: number; directorySize: number; directoryEnd: number };

function uint64(buffer: Buffer, offset: number): number | null {
  const value = buffer.readBigUInt64LE(offset);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : null;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * The end of central directory record (and its Zip64 form), found as yauzl finds it: the last
 * signature in the file's tail (APPNOTE 4.3.14-4.3.16). yauzl keeps only the entry count and the
 * directory's offset; the size, the count "on this disk" and what follows the directory are what
 * another tool might believe instead, so they must agree. Null when they do not.
 */
async function readEndRecord(file: FileHandle, fileSize: number): Promise<EndRecord | null> {
  const tailStart = Math.max(0, fileSize - (END_RECORD_BYTES + 0xffff + ZIP64_LOCATOR_BYTES));
  const tail = await readAt(file, tailStart, fileSize - tailStart);
  for (let at = tail.length - END_RECORD_BYTES; at >= 0; at -= 1) {
    if (tail.readUInt32LE(at) !== SIGNATURE.end) continue;
    const endOffset = tailStart + at;
    const locator = at - ZIP64_LOCATOR_BYTES;
    if (locator < 0 || tail.readUInt32LE(locator) !== SIGNATURE.zip64Locator) {
      if (tail.readUInt16LE(at + 8) !== tail.readUInt16LE(at + 10)) return null;
      return {
        entries: tail.readUInt16LE(at + 10),
        directorySize: tail.readUInt32LE(at + 12),
        directoryOffset: tail.readUInt32LE(at + 16),
        directoryEnd: endOffset,
      };
    }
    const recordOffset = uint64(tail, locator + 8);
    if (recordOffset === null) return null;
    const record = await readAt(file, recordOffset, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== SIGNATURE.zip64End) return null;
    const recordEnd = uint64(record, 4);
    const entries = uint64(record, 32);
    const directorySize = uint64(record, 40);
    const directoryOffset = uint64(record, 48);
    if (recordEnd === null || entries === null || directorySize === null || directoryOffset === null) return null;
    // The record, then the locator, then the end record: nothing in between.
    if (recordOffset + 12 + recordEnd !== tailStart + locator) return null;
    if (uint64(record, 24) !== entries) return null;
    return { entries, directorySize, directoryOffset, directoryEnd: recordOffset };
  }
  return null;
}

/**
 * Where an entry's data descriptor (APPNOTE 4.3.9) may end: with or without its optional
 * signature, with 4- or 8-byte sizes. A candidate counts only if it repeats the directory's CRC
 * and sizes.
 */
async function descriptorEnds(file: FileHandle, at: number, entry: yauzl.Entry): Promise<number[]> {
  const bytes = await readAt(file, at, 24);
  const ends: number[] = [];
  for (const skip of [0, 4]) {
    if (skip === 4 && (bytes.length < 4 || bytes.readUInt32LE(0) !== SIGNATURE.descriptor)) continue;
    const body = bytes.subarray(skip);
    if (body.length < 12 || body.readUInt32LE(0) !== entry.crc32) continue;
    if (body.readUInt32LE(4) === entry.compressedSize && body.readUInt32LE(8) === entry.uncompressedSize) {
      ends.push(at + skip + 12);
    }
    if (body.length >= 20 && uint64(body, 4) === entry.compressedSize && uint64(body, 12) === entry.uncompressedSize) {
      ends.push(at + skip + 20);
    }
  }
  return ends;
}

type Listed = { entry: yauzl.Entry; local: yauzl.LocalFileHeader };

/**
 * The listed entries, in file order, must fill the file from byte 0 to the central directory:
 * each entry (local header, name, extra field, data, data descriptor) ends where the next begins.
 * A gap could hold an entry that only a streaming extractor sees; an overlap is a known zip bomb
 * (many directory entries sharing one compressed block).
 */
async function localDataTiles(file: FileHandle, listed: Listed[], directoryOffset: number): Promise<boolean> {
  const inOrder = [...listed].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  let start = 0;
  for (const [index, { entry, local }] of inOrder.entries()) {
    if (entry.relativeOffsetOfLocalHeader !== start) return false;
    const next = inOrder[index + 1]?.entry.relativeOffsetOfLocalHeader ?? directoryOffset;
    const dataEnd = local.fileDataStart + entry.compressedSize;
    // Bit 3: sizes and CRC follow the data in a descriptor.
    const ends = local.generalPurposeBitFlag & 0x8 ? await descriptorEnds(file, dataEnd, entry) : [dataEnd];
    if (!ends.includes(next)) return false;
    start = next;
  }
  return start === directoryOffset;
}

/**
 * Decompresses every entry once, counting what comes out: more than the limit in all is refused
 * as soon as it is passed, and an entry whose data does not match its CRC is damaged. yauzl's
 * validateEntrySizes also stops an entry that inflates past its declared size.
 */
async function inflatedProblem(zip: yauzl.ZipFile, entries: yauzl.Entry[]): Promise<string | null> {
  let total = 0;
  for (const entry of entries) {
    const stream = await zip.openReadStreamPromise(entry);
    let crc = 0;
    try {
      for await (const chunk of stream) {
        if (!Buffer.isBuffer(chunk)) return albumZipMessages.unreadable;
        total += chunk.length;
        if (total > ALBUM_ZIP_LIMITS.uncompressedBytes) return albumZipMessages.tooLarge;
        crc = zlib.crc32(chunk, crc);
      }
    } finally {
      stream.destroy();
    }
    if (crc !== entry.crc32) return albumZipMessages.unreadable;
  }
  return null;
}

/**
 * Says whether the zip may be stored as an album: readable and consistent, at most
 * ALBUM_ZIP_LIMITS.entries entries and uncompressedBytes in all (declared, then real), no
 * password, only safe relative names, at least one audio file. The first problem found is the
 * answer; the cheap checks of the directory come before the one that reads everything.
 */
export async function checkAlbumZip(filePath: string): Promise<AlbumZipCheck> {
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings off: yauzl would refuse unsafe names with its own technical error, and we
    // want to name the file. strictFileNames keeps backslashes as they are, for the same reason.
    zip = await yauzl.openPromise(filePath, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      strictFileNames: true,
      validateEntrySizes: true,
    });
  } catch {
    return refuse(albumZipMessages.unreadable);
  }
  let file: FileHandle | null = null;
  try {
    // The count comes from the end record: a zip claiming millions of entries is refused unread.
    if (zip.entryCount > ALBUM_ZIP_LIMITS.entries) return refuse(albumZipMessages.tooManyEntries);
    file = await fs.open(filePath, 'r');
    const end = await readEndRecord(file, zip.fileSize);
    if (!end || end.entries !== zip.entryCount) return refuse(albumZipMessages.unreadable);

    const listed: Listed[] = [];
    let directoryBytes = 0;
    let declaredBytes = 0;
    let audioEntries = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.isEncrypted()) return refuse(albumZipMessages.encrypted);
      const problem = nameProblem(entry);
      if (problem) return refuse(problem);
      const local = await zip.readLocalFileHeaderPromise(entry);
      const localName = localProblem(entry, local);
      if (localName) return refuse(localName);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        return refuse(albumZipMessages.unsupportedMethod);
      }
      directoryBytes += CENTRAL_HEADER_BYTES + entry.fileNameLength + entry.extraFieldLength + entry.fileCommentLength;
      // What the zip claims first: a bomb that admits its size is refused without inflating it.
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > ALBUM_ZIP_LIMITS.uncompressedBytes) return refuse(albumZipMessages.tooLarge);
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      if (isAudio(name) && !isClutter(name)) audioEntries += 1;
      listed.push({ entry, local });
    }
    // The end record's count decides how many entries yauzl reads; entries past that count would
    // still be in the directory for tools that read it by size. It must hold exactly those read.
    const directoryExact =
      directoryBytes === end.directorySize && end.directoryOffset + end.directorySize === end.directoryEnd;
    if (!directoryExact || !(await localDataTiles(file, listed, end.directoryOffset))) {
      return refuse(albumZipMessages.unreadable);
    }
    if (audioEntries === 0) return refuse(albumZipMessages.noAudio);
    const inflated = await inflatedProblem(
      zip,
      listed.map(({ entry }) => entry),
    );
    if (inflated) return refuse(inflated);
    return { ok: true, summary: { entries: zip.entryCount, audioEntries, uncompressedBytes: declaredBytes } };
  } catch (error) {
    // yauzl refuses PKWARE strong encryption (flag bit 6) outright instead of handing over the entry.
    const message = error instanceof Error && /encryption/i.test(error.message) ? 'encrypted' : 'unreadable';
    return refuse(albumZipMessages[message]);
  } finally {
    zip.close();
    await file?.close();
  }
}
