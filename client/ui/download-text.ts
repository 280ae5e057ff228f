import type { AlbumFormat, FormatPreparation } from '../../shared/answers/formats';
import { type DownloadFormatId, downloadFormats } from '../../shared/download-formats';
import { formatBytes } from '../lib/format-bytes';
import type { DownloadView } from './download-preparation';

// The words of the download formats (issue 27), in one place and tested
// (tests/unit/download-text.test.ts): what is being prepared and how far it has come, what is
// ready, and which track failed and why.

type Subject = { kind: 'album' | 'track'; name: string };

const label = (format: DownloadFormatId) => downloadFormats[format].label;

/**
 * "Preparing FLAC · 4 of 10 tracks". A track's line sits in its own row, so it does not name it
 * again: "Preparing FLAC…".
 */
export function preparingText(
  subject: Subject,
  format: DownloadFormatId,
  progress?: Pick<FormatPreparation, 'readyTracks' | 'totalTracks'>,
): string {
  if (subject.kind === 'track') {
    return format === 'original' ? 'Preparing the original file…' : `Preparing ${label(format)}…`;
  }
  const what = format === 'original' ? 'the original files' : label(format);
  if (!progress || progress.totalTracks <= 0) return `Preparing ${what}…`;
  const tracks = progress.totalTracks === 1 ? 'track' : 'tracks';
  return `Preparing ${what} · ${Math.min(progress.readyTracks, progress.totalTracks)} of ${progress.totalTracks} ${tracks}`;
}

/** What is ready, and whether its download has started by itself. */
export function readyText(subject: Subject, format: DownloadFormatId, started: boolean): string {
  const what =
    format !== 'original'
      ? `${label(format)} is ready.`
      : subject.kind === 'track'
        ? 'The original file is ready.'
        : 'The original files are ready.';
  return started ? `${what} Your download has started.` : what;
}

/** The link to the prepared file, in case the browser held the download back. */
export function downloadLinkText(subject: Subject, format: DownloadFormatId): string {
  if (format !== 'original') return `Download ${label(format)}`;
  return subject.kind === 'track' ? 'Download the original file' : 'Download the original files';
}

/**
 * What could not be prepared and why: the track the server names ("Could not prepare “Name” as
 * FLAC: …"), else the whole thing, with the request's own failure when there is one.
 */
export function failureText(
  subject: Subject,
  format: DownloadFormatId,
  failed?: FormatPreparation['failed'],
  message?: string,
): string {
  const as = format === 'original' ? '' : ` as ${label(format)}`;
  const what = failed
    ? `“${failed.trackName}”${as}`
    : subject.kind === 'track'
      ? `“${subject.name}”${as}`
      : format === 'original'
        ? 'the original files'
        : label(format);
  const why = (failed?.message ?? message ?? '').trim().replace(/\.$/, '');
  return `Could not prepare ${what}${why ? `: ${why}` : ''}.`;
}

/** The line a download's status shows (empty when nothing was chosen). */
export function statusText(subject: Subject, view: DownloadView): string {
  switch (view.state) {
    case 'idle':
      return '';
    case 'starting':
      return preparingText(subject, view.format);
    case 'preparing':
      return preparingText(subject, view.format, view);
    case 'ready':
      return readyText(subject, view.format, view.started);
    case 'failed':
      return failureText(subject, view.format, view.failed, view.message);
  }
}

/** "about 92 MB"; nothing when the size is not known. */
export function approxSizeText(bytes: number | null): string {
  return bytes !== null && bytes > 0 ? `about ${formatBytes(bytes)}` : '';
}

/**
 * One track's share of the album's size in a format, by its length: the formats answer sizes for
 * the whole album. Null when a length is not known.
 */
export function trackBytes(
  albumBytes: number,
  trackSeconds: number | null,
  albumSeconds: readonly (number | null)[],
): number | null {
  if (trackSeconds === null || trackSeconds <= 0 || albumBytes <= 0) return null;
  let total = 0;
  for (const seconds of albumSeconds) {
    if (seconds === null || seconds <= 0) return null;
    total += seconds;
  }
  return total > 0 ? Math.round((albumBytes * trackSeconds) / total) : null;
}

/**
 * The formats that are not offered, grouped by why, in the album's order of formats: a reason
 * shared by FLAC, ALAC and WAV is said once.
 */
export function unavailableGroups(formats: readonly AlbumFormat[]): { labels: string[]; reason: string }[] {
  const groups = new Map<string, string[]>();
  for (const format of formats) {
    if (format.available) continue;
    const reason = format.reason ?? 'Not offered for this album.';
    groups.set(reason, [...(groups.get(reason) ?? []), format.label]);
  }
  return [...groups].map(([reason, labels]) => ({ labels, reason }));
}

/** "FLAC", "FLAC and WAV", "FLAC, ALAC and WAV". */
export function listOf(words: readonly string[]): string {
  if (words.length <= 2) return words.join(' and ');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
