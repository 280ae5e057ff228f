import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../client/offline/download-track';
import { describeEstimate, estimatedBytes, qualityUrl } from '../../client/offline/offline-quality';
import { trackUrls } from '../../shared/answers/library';
import { STREAM_BITRATE } from '../../server/infra/audio/transcode';

// Saving for offline in two qualities (issue 27): the sizes offered before saving, the URL each
// quality is downloaded from (never the player's own, which the service worker answers), and how
// long a download waits for a Data saver file the server is still making.

const seconds = (...lengths: (number | null)[]) => lengths.map((durationSeconds) => ({ durationSeconds }));

describe('the sizes offered before saving', () => {
  it('gives Standard at the streaming rendition’s bitrate and Data saver at 96 kbps with its M4A index', () => {
    // The server's streaming MP3 is constant-rate: its size is its length times its bitrate.
    expect(estimatedBytes(seconds(1), 'standard')).toBe((Number.parseInt(STREAM_BITRATE, 10) * 1000) / 8);
    expect(estimatedBytes(seconds(120, 60.5), 'standard')).toBe(180.5 * 24_000);
    // 96 kbps is 12,000 bytes a second; the index and headers add a little to each file.
    const low = estimatedBytes(seconds(120, 60.5), 'low')!;
    expect(low).toBeGreaterThan(180.5 * 12_000);
    expect(low).toBeLessThan(180.5 * 12_000 * 1.03);
    expect(estimatedBytes(seconds(), 'low')).toBe(0);
  });

  it('gives no figure when a track’s length is unknown, rather than one that leaves it out', () => {
    expect(estimatedBytes(seconds(120, null), 'standard')).toBeUndefined();
    expect(describeEstimate('low', undefined)).toBe('Data saver');
  });

  it('reads as people say it', () => {
    expect(describeEstimate('standard', estimatedBytes(seconds(2166), 'standard'))).toBe('Standard · about 52 MB');
    expect(describeEstimate('low', estimatedBytes(seconds(2166), 'low'))).toBe('Data saver · about 26 MB');
  });
});

describe('where each quality is downloaded from', () => {
  it('is the player’s URL with the quality added, so the service worker’s key stays the player’s', () => {
    expect(qualityUrl('/api/tracks/7/stream?v=a1', 'low')).toBe('/api/tracks/7/stream?v=a1&quality=low');
    fc.assert(
      fc.property(
        fc.nat(),
        fc.string(),
        fc.constantFrom('standard' as const, 'low' as const),
        (id, version, quality) => {
          const src = trackUrls.stream(id, version);
          const url = qualityUrl(src, quality);
          expect(url.startsWith(`${src}&`)).toBe(true);
          const parsed = new URL(url, 'https://soundcause.test');
          expect(parsed.searchParams.get('v')).toBe(version);
          expect(parsed.searchParams.get('quality')).toBe(quality);
          // Never the player's own URL, which the worker may answer from the copy being replaced.
          expect(url).not.toBe(src);
        },
      ),
    );
  });
});

describe('waiting for a Data saver file being made', () => {
  it('waits as Retry-After says, in seconds or as a date, within bounds', () => {
    expect(retryAfterMs('5')).toBe(5_000);
    expect(retryAfterMs('3600')).toBe(30_000);
    const soon = new Date(Date.now() + 12_000).toUTCString();
    expect(retryAfterMs(soon)).toBeGreaterThan(9_000);
    expect(retryAfterMs(soon)).toBeLessThanOrEqual(12_000);
    // Unsaid, past or unreadable: a few seconds.
    for (const header of [null, '', '0', 'soon', new Date(Date.now() - 60_000).toUTCString()]) {
      expect(retryAfterMs(header)).toBe(5_000);
    }
  });
});
