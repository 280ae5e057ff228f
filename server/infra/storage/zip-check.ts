import yauzl from 'yauzl';
import { ALBUM_ZIP_LIMITS } from '../../../shared/constants';

// Issue 5: a legacy album zip is checked before it is stored, from its central directory alone
// (nothing is extracted or decompressed, so a zip bomb costs us a few small reads). Buyers and
// admins unzip it later with whatever tool they have: a name that climbs out of the folder, an
// absolute path or a symlink could then write anywhere on their disk ("zip slip").

const GB = 1024 * 1024 * 1024;
const audioList = ALBUM_ZIP_LIMITS.audioExtensions.join(', ').replace(/, (?=[^,]*$)/, ' or ');

export const albumZipMessages = {
  unreadable: 'The zip could not be read. It may be damaged or incomplete: please zip your songs again.',
  tooManyEntries: `The zip holds more than ${ALBUM_ZIP_LIMITS.entries} files.`,
  tooLarge: `The songs in the zip add up to more than ${ALBUM_ZIP_LIMITS.uncompressedBytes / GB} GB once unzipped.`,
  encrypted: 'The zip is password-protected. Please upload a zip without a password.',
  noAudio: `The zip holds no audio files (${audioList}).`,
  badPath: (name: string) => `The zip contains a file path that is not allowed: ${shown(name)}`,
  link: (name: string) => `The zip contains a shortcut (symbolic link), which is not allowed: ${shown(name)}`,
};

/** The sum of what the zip says it holds, for the caller to log or keep. */
export type AlbumZipSummary = { entries: number; audioEntries: number; uncompressedBytes: number };

export type AlbumZipCheck = { ok: true; summary: AlbumZipSummary } | { ok: false; message: string };

// C0 controls, DEL and C1 controls: invisible in file managers, and a newline or escape in a
// name can forge lines in terminals and logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A name as a person can read it in a message: controls made visible, very long names cut. */
function shown(name: string) {
  // eslint-disable-next-line no-control-regex
  const visible = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return visible.length > 120 ? `${visible.slice(0, 119)}…` : visible;
}

/** Why an entry name is unsafe to extract, or null. Backslashes count: Windows tools treat them as folders. */
function unsafePath(name: string) {
  return (
    name === '' ||
    name.startsWith('/') ||
    /^[a-zA-Z]:/.test(name) ||
    name.includes('\\') ||
    CONTROL.test(name) ||
    name.split('/').includes('..')
  );
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

/** Unix symlink entries (made by Info-ZIP with -y): type bits in the high half of the attributes. */
function isSymlink(entry: yauzl.Entry) {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  return madeOnUnix && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/**
 * Reads the zip's directory and says whether it may be stored as an album: readable, at most
 * ALBUM_ZIP_LIMITS.entries entries and uncompressedBytes in all, no password, only safe relative
 * names, and at least one audio file. The first problem found is the answer.
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
    return { ok: false, message: albumZipMessages.unreadable };
  }
  try {
    // The count comes from the end record: a zip claiming millions of entries is refused unread.
    if (zip.entryCount > ALBUM_ZIP_LIMITS.entries) return { ok: false, message: albumZipMessages.tooManyEntries };
    let uncompressedBytes = 0;
    let audioEntries = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.isEncrypted()) return { ok: false, message: albumZipMessages.encrypted };
      // Every name an extracting tool might use: the plain one, and the Info-ZIP Unicode path
      // extra field that most tools prefer when present.
      const plain = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, [], true);
      const unicode = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        true,
      );
      for (const name of new Set([plain, unicode])) {
        if (unsafePath(name)) return { ok: false, message: albumZipMessages.badPath(name) };
      }
      // Names not flagged as UTF-8 decode as CP437, where control bytes become glyphs; tools that
      // extract raw bytes would still write the control characters.
      if (entry.fileNameRaw.some((byte) => byte < 0x20 || byte === 0x7f)) {
        return { ok: false, message: albumZipMessages.badPath(entry.fileNameRaw.toString('latin1')) };
      }
      if (isSymlink(entry)) return { ok: false, message: albumZipMessages.link(plain) };
      // Streaming extractors read the local header instead of the directory: it must point inside
      // the file and carry the same name, or the check above would not be the one that counts.
      const local = await zip.readLocalFileHeaderPromise(entry);
      if (!local.fileName.equals(entry.fileNameRaw)) return { ok: false, message: albumZipMessages.unreadable };
      uncompressedBytes += entry.uncompressedSize;
      if (uncompressedBytes > ALBUM_ZIP_LIMITS.uncompressedBytes) {
        return { ok: false, message: albumZipMessages.tooLarge };
      }
      if (isAudio(unicode) && !isClutter(unicode)) audioEntries += 1;
    }
    if (audioEntries === 0) return { ok: false, message: albumZipMessages.noAudio };
    return { ok: true, summary: { entries: zip.entryCount, audioEntries, uncompressedBytes } };
  } catch (error) {
    // yauzl refuses PKWARE strong encryption (flag bit 6) outright instead of handing over the entry.
    const message = error instanceof Error && /encryption/i.test(error.message) ? 'encrypted' : 'unreadable';
    return { ok: false, message: albumZipMessages[message] };
  } finally {
    zip.close();
  }
}
