// The formats an album and its tracks download in (issue 27; DESIGN.md, contract details for wave
// 3, formats), named once for the server that makes them and the pages that offer them.

export const DOWNLOAD_FORMAT_IDS = [
  'original',
  'mp3-320',
  'mp3-v0',
  'aac-256',
  'opus-128',
  'flac',
  'alac',
  'wav',
] as const;
export type DownloadFormatId = (typeof DOWNLOAD_FORMAT_IDS)[number];

export type DownloadFormatInfo = {
  label: string;
  /** What the format is good for, in a line under its name. */
  description: string;
  /** Lossless targets are made only from lossless originals (never upsampled). */
  lossless: boolean;
  /** The file name's extension; `original` keeps each upload's own. */
  extension: string;
};

export const downloadFormats: Record<DownloadFormatId, DownloadFormatInfo> = {
  original: {
    label: 'Original files',
    description: 'Exactly as the artist uploaded them.',
    lossless: false,
    extension: '',
  },
  'mp3-320': {
    label: 'MP3 320',
    description: 'Plays everywhere, highest MP3 quality.',
    lossless: false,
    extension: 'mp3',
  },
  'mp3-v0': {
    label: 'MP3 V0',
    description: 'Plays everywhere, a little smaller than 320.',
    lossless: false,
    extension: 'mp3',
  },
  'aac-256': {
    label: 'AAC 256',
    description: 'For Apple Music, iTunes and iPhone.',
    lossless: false,
    extension: 'm4a',
  },
  'opus-128': {
    label: 'Opus 128',
    description: 'Small files that still sound great.',
    lossless: false,
    extension: 'opus',
  },
  flac: { label: 'FLAC', description: 'Lossless, compressed.', lossless: true, extension: 'flac' },
  alac: { label: 'ALAC', description: 'Lossless, for Apple devices.', lossless: true, extension: 'm4a' },
  wav: { label: 'WAV', description: 'Lossless, uncompressed.', lossless: true, extension: 'wav' },
};

export const isDownloadFormat = (value: string): value is DownloadFormatId =>
  (DOWNLOAD_FORMAT_IDS as readonly string[]).includes(value);

/** Why a lossless format is not offered for an album with a lossy original. */
export const losslessUnavailableReason =
  'Not offered: some of these tracks were uploaded as MP3, and a lossless copy of an MP3 would only be bigger, not better.';

/** Why FLAC and ALAC are not offered for 32-bit or floating-point WAV originals. */
export const deepWavReason =
  'Not offered: these tracks were uploaded as 32-bit or floating-point WAV, more than FLAC and ALAC can hold; WAV keeps every bit.';

/** Why nothing but the uploaded zip is offered for an album from the old site. */
export const legacyAlbumReason = 'Not offered: this album was uploaded as one zip and downloads as it was uploaded.';
