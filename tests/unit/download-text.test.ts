import { describe, expect, it } from 'vitest';
import type { AlbumFormat } from '../../shared/answers/formats';
import { losslessUnavailableReason } from '../../shared/download-formats';
import { albumTarget, grantIn, trackTarget } from '../../client/ui/download-formats-api';
import { viewOf, type ViewInput } from '../../client/ui/download-preparation';
import {
  approxSizeText,
  downloadLinkText,
  failureText,
  listOf,
  preparingText,
  readyText,
  statusText,
  trackBytes,
  unavailableGroups,
} from '../../client/ui/download-text';
import { ApiError, NetworkError } from '../../client/api/errors';

// The words of the download formats (issue 27) and what a preparation shows from the server's
// answers: the progress line, the failed track, sizes, and the addresses each holder asks at.

const album = { kind: 'album', name: 'Harbor Songs' } as const;
const track = { kind: 'track', name: 'Gulls' } as const;

describe('the progress line', () => {
  it('counts an album’s tracks', () => {
    expect(preparingText(album, 'flac', { readyTracks: 4, totalTracks: 10 })).toBe('Preparing FLAC · 4 of 10 tracks');
    expect(preparingText(album, 'mp3-320', { readyTracks: 0, totalTracks: 1 })).toBe(
      'Preparing MP3 320 · 0 of 1 track',
    );
    expect(preparingText(album, 'flac')).toBe('Preparing FLAC…');
    expect(preparingText(album, 'original')).toBe('Preparing the original files…');
    // A count past the total (a track counted twice by a retry) never reads "11 of 10".
    expect(preparingText(album, 'wav', { readyTracks: 11, totalTracks: 10 })).toBe('Preparing WAV · 10 of 10 tracks');
    // A track's line is in its row: it does not name the track again.
    expect(preparingText(track, 'opus-128', { readyTracks: 0, totalTracks: 1 })).toBe('Preparing Opus 128…');
    expect(preparingText(track, 'original')).toBe('Preparing the original file…');
  });

  it('says what is ready, whether its download started, and names the link', () => {
    expect(readyText(album, 'flac', true)).toBe('FLAC is ready. Your download has started.');
    expect(readyText(album, 'flac', false)).toBe('FLAC is ready.');
    expect(readyText(album, 'original', true)).toBe('The original files are ready. Your download has started.');
    expect(readyText(track, 'aac-256', false)).toBe('AAC 256 is ready.');
    expect(readyText(track, 'original', true)).toBe('The original file is ready. Your download has started.');
    expect(downloadLinkText(album, 'flac')).toBe('Download FLAC');
    expect(downloadLinkText(album, 'original')).toBe('Download the original files');
    expect(downloadLinkText(track, 'original')).toBe('Download the original file');
  });

  it('names the track that failed and why, or the request’s own failure', () => {
    const failed = { trackId: 7, trackName: 'Tide', message: 'The file could not be read.' };
    expect(failureText(album, 'flac', failed)).toBe('Could not prepare “Tide” as FLAC: The file could not be read.');
    expect(failureText(album, 'original', failed)).toBe('Could not prepare “Tide”: The file could not be read.');
    expect(failureText(album, 'flac', undefined, 'Not found.')).toBe('Could not prepare FLAC: Not found.');
    expect(failureText(track, 'mp3-v0', undefined, 'Not found')).toBe(
      'Could not prepare “Gulls” as MP3 V0: Not found.',
    );
    expect(failureText(album, 'wav')).toBe('Could not prepare WAV.');
  });
});

describe('sizes', () => {
  it('reads as people do, and says nothing of a size not known', () => {
    expect(approxSizeText(92_400_000)).toBe('about 92 MB');
    expect(approxSizeText(3_140_000)).toBe('about 3.1 MB');
    expect(approxSizeText(0)).toBe('');
    expect(approxSizeText(null)).toBe('');
  });

  it('gives a track its share of the album by length, or none when a length is unknown', () => {
    expect(trackBytes(90_000_000, 60, [60, 120])).toBe(30_000_000);
    expect(trackBytes(90_000_000, 60, [60, null])).toBeNull();
    expect(trackBytes(90_000_000, null, [60, 120])).toBeNull();
    expect(trackBytes(0, 60, [60])).toBeNull();
  });
});

describe('formats not offered', () => {
  const format = (id: AlbumFormat['id'], label: string, available: boolean, reason?: string): AlbumFormat => ({
    id,
    label,
    lossless: false,
    available,
    approxBytes: 1000,
    ...(reason ? { reason } : {}),
  });

  it('says a reason shared by several formats once, naming them', () => {
    const groups = unavailableGroups([
      format('mp3-320', 'MP3 320', true),
      format('flac', 'FLAC', false, losslessUnavailableReason),
      format('alac', 'ALAC', false, losslessUnavailableReason),
      format('wav', 'WAV', false, losslessUnavailableReason),
    ]);
    expect(groups).toEqual([{ labels: ['FLAC', 'ALAC', 'WAV'], reason: losslessUnavailableReason }]);
    expect(listOf(groups[0]!.labels)).toBe('FLAC, ALAC and WAV');
    expect(listOf(['FLAC', 'WAV'])).toBe('FLAC and WAV');
    expect(unavailableGroups([format('wav', 'WAV', false)])).toEqual([
      { labels: ['WAV'], reason: 'Not offered for this album.' },
    ]);
  });
});

describe('what a preparation shows', () => {
  const base: ViewInput = {
    format: 'flac',
    restored: false,
    posting: false,
    postError: null,
    preparation: undefined,
    readError: null,
    started: false,
  };
  const preparation = (status: 'preparing' | 'ready' | 'failed', readyTracks = 4) => ({
    format: 'flac' as const,
    status,
    readyTracks,
    totalTracks: 10,
    downloadUrl: '/api/music-library/album/3/download?format=flac',
  });

  it('goes from asking to preparing to ready, in the server’s words', () => {
    expect(viewOf({ ...base, format: null })).toEqual({ state: 'idle' });
    expect(statusText(album, viewOf({ ...base, posting: true }))).toBe('Preparing FLAC…');
    expect(statusText(album, viewOf({ ...base, preparation: preparation('preparing') }))).toBe(
      'Preparing FLAC · 4 of 10 tracks',
    );
    expect(viewOf({ ...base, preparation: preparation('ready', 10), started: true })).toEqual({
      state: 'ready',
      format: 'flac',
      downloadUrl: '/api/music-library/album/3/download?format=flac',
      started: true,
    });
    // While a new request is on its way, an older answer is not shown as this one's.
    expect(viewOf({ ...base, posting: true, preparation: preparation('ready', 10) }).state).toBe('starting');
    // Another format's answer is not this one's.
    expect(viewOf({ ...base, format: 'wav', preparation: preparation('ready', 10) }).state).toBe('starting');
  });

  it('says what failed: the server’s track, the request, or nothing for a remembered one that is gone', () => {
    const failed = { trackId: 7, trackName: 'Tide', message: 'ffmpeg stopped' };
    expect(statusText(album, viewOf({ ...base, preparation: { ...preparation('failed'), failed } }))).toBe(
      'Could not prepare “Tide” as FLAC: ffmpeg stopped.',
    );
    const refused = new ApiError(403, 'This album is not yours to download.', 'OTHER');
    expect(statusText(album, viewOf({ ...base, postError: refused }))).toBe(
      'Could not prepare FLAC: This album is not yours to download.',
    );
    expect(statusText(album, viewOf({ ...base, postError: new NetworkError(new TypeError('offline')) }))).toBe(
      'Could not prepare FLAC: The server could not be reached. Please try again.',
    );
    expect(viewOf({ ...base, restored: true, readError: new ApiError(404, 'Not found.') })).toEqual({ state: 'idle' });
    expect(viewOf({ ...base, restored: true })).toEqual({ state: 'idle' });
  });
});

describe('where each holder asks', () => {
  it('asks at the account’s, the receipt’s, the grant’s and the track’s addresses', () => {
    const harbor = { id: 3, name: 'Harbor Songs' };
    expect(albumTarget(harbor, { via: 'library' }).preparationPath('flac')).toBe(
      '/api/music-library/album/3/formats/flac',
    );
    expect(albumTarget(harbor, { via: 'receipt', token: 'tok_en' }).preparationPath('mp3-320')).toBe(
      '/api/purchases/tok_en/formats/mp3-320',
    );
    expect(albumTarget(harbor, { via: 'grant', grant: 'a+b/c' }).preparationPath('wav')).toBe(
      '/api/fundraisers/3/formats/wav?grant=a%2Bb%2Fc',
    );
    expect(trackTarget({ id: 9, name: 'Gulls' }, 3).preparationPath('opus-128')).toBe('/api/tracks/9/formats/opus-128');
    const streamSrc = '/api/tracks/9/stream?v=r1&grant=g%2B1';
    expect(trackTarget({ id: 9, name: 'Gulls' }, 3, grantIn(streamSrc)).preparationPath('flac')).toBe(
      '/api/tracks/9/formats/flac?grant=g%2B1',
    );
    expect(grantIn('/api/fundraisers/3/download')).toBeNull();
  });
});
