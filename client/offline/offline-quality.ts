import { formatBytes } from '../lib/format-bytes';

// The two qualities music is saved in (issue 27; DESIGN.md "offline quality"): Standard is the
// streaming rendition, Data saver the same track as AAC 96 kbps, made by the server at its first
// request. Pure, and without the store (Dexie), so the album page and the tests take it alone.

export const offlineQualities = ['standard', 'low'] as const;
export type OfflineQuality = (typeof offlineQualities)[number];

export const qualityNames: Record<OfflineQuality, string> = { standard: 'Standard', low: 'Data saver' };

export const qualityHints: Record<OfflineQuality, string> = {
  standard: 'The quality you stream.',
  low: 'Smaller files at lower quality, good for phones.',
};

/** The other of the two. */
export const otherQuality = (quality: OfflineQuality): OfflineQuality => (quality === 'low' ? 'standard' : 'low');

/**
 * Where a quality's bytes are downloaded from: the player's URL with the quality added, Standard
 * included. The player's URL itself stays the service worker's key (sw.ts): a download never asks
 * for it, so the worker cannot answer a download from the copy it is meant to replace.
 */
export const qualityUrl = (src: string, quality: OfflineQuality) =>
  `${src}${src.includes('?') ? '&' : '?'}quality=${quality}`;

/** The content type a quality's answer has, until the answer says. */
export const qualityContentType: Record<OfflineQuality, string> = { standard: 'audio/mpeg', low: 'audio/mp4' };

/**
 * Bytes a second of each rendition: Standard is a 192 kbps constant-rate MP3 (STREAM_BITRATE in
 * server/infra/audio/transcode.ts), Data saver a 96 kbps AAC stream in an M4A, whose index adds
 * about 4 bytes for each of its 43 frames a second and its headers a couple of kilobytes.
 */
const bytesPerSecond: Record<OfflineQuality, number> = { standard: 24_000, low: 12_000 + 180 };
const bytesPerFile: Record<OfflineQuality, number> = { standard: 0, low: 2_000 };

/**
 * What saving the tracks takes in a quality, estimated from their lengths before anything is
 * downloaded; undefined when a length is unknown (a figure that leaves a track out would mislead).
 */
export function estimatedBytes(
  tracks: readonly { durationSeconds: number | null }[],
  quality: OfflineQuality,
): number | undefined {
  let total = 0;
  for (const track of tracks) {
    if (track.durationSeconds === null) return undefined;
    total += Math.ceil(track.durationSeconds * bytesPerSecond[quality]) + bytesPerFile[quality];
  }
  return total;
}

/** 'Data saver · about 26 MB', or the name alone when the size is unknown. */
export function describeEstimate(quality: OfflineQuality, bytes: number | undefined): string {
  return bytes === undefined ? qualityNames[quality] : `${qualityNames[quality]} · about ${formatBytes(bytes)}`;
}

const CHOSEN_KEY = 'soundcause-offline-quality';

/**
 * The quality last chosen on this device, for the next save: someone who picked Data saver on
 * their phone wants it again. Standard until a choice is made.
 */
export function chosenQuality(): OfflineQuality {
  try {
    return localStorage.getItem(CHOSEN_KEY) === 'low' ? 'low' : 'standard';
  } catch {
    return 'standard';
  }
}

const listeners = new Set<() => void>();

export function chooseQuality(quality: OfflineQuality) {
  try {
    localStorage.setItem(CHOSEN_KEY, quality);
  } catch {
    // Not remembered: the next save offers Standard again, nothing worse.
  }
  for (const listener of listeners) listener();
}

/** Follows the choice, made here or in another tab. */
export function subscribeToChosenQuality(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CHOSEN_KEY) onChange();
  };
  listeners.add(onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}
