import type { AlbumFormat, AlbumFormats, FormatPreparation } from '../../../shared/answers/formats';
import {
  DOWNLOAD_FORMAT_IDS,
  type DownloadFormatId,
  downloadFormats,
  isDownloadFormat,
  deepWavReason,
  legacyAlbumReason,
  losslessUnavailableReason,
} from '../../../shared/download-formats';
import { formatEin } from '../../../shared/ein';
import type { Deps, Session } from '../../deps';
import { setTimeout as sleep } from 'node:timers/promises';
import { conflict, invalid, notFound, unavailable } from '../../errors';
import { encodings, type TranscodeFormat } from '../../infra/audio/encode';
import { firstBytes, wavSamples, type WavSamples } from '../../infra/audio/wav-samples';
import {
  askForTranscodes,
  cacheKeyOf,
  findTranscode,
  findTranscodes,
  forgetTranscode,
  type TranscodeAsk,
  type TranscodeRow,
  touchTranscodes,
} from '../../infra/transcodes/cache';
import { COVER_WIDTH } from '../../infra/transcodes/job';
import { streamChecksum } from '../../infra/storage/checksum';
import { findUpload } from '../../infra/storage/upload-records';
import type { ZipStreamEntry } from '../../infra/storage/zip-stream';
import { artistSummaries } from '../artists/service';
import { type AlbumDownload, albumFiles, safeFileName } from './album-media';
import { visibleOrNotFound } from './permissions';
import * as queries from './queries';
import type { FundraiserRow } from './queries';

// An album, or one of its tracks, in the format a fan chooses (issue 27; DESIGN.md, contract
// details for wave 3, formats): which formats there are and their sizes, preparing one (a
// transcode job per track, server/infra/transcodes), how far that has come, and the download.
// Who may ask is decided by the caller (a session that may stream the album, a grant, a receipt
// link); these functions are given the fundraiser that was decided on.

export const formatMessages = {
  unknownFormat: 'Unknown download format.',
  preparing: 'This download is still being prepared. Please try again in a moment.',
  noTracks: 'This fundraiser has no tracks to download yet.',
  trackNotFound: 'Track not found.',
  noZip: 'This fundraiser has no album zip yet.',
};

/** A track of the album with its original, as the formats see it. */
type TrackSource = {
  trackId: number;
  name: string;
  /** 1-based, in the order of the album's tracks that download. */
  number: number;
  durationSeconds: number | null;
  upload: { id: string; format: 'wav' | 'mp3'; bytes: number; crc32: number | null };
  /** A WAV original's samples (undefined for an MP3, or a WAV whose header could not be read). */
  samples?: WavSamples;
};

type Album = { row: FundraiserRow; artistName: string; tracks: TrackSource[] };

/** Uploads never change: what each WAV's header said is kept for the process's life (a few bytes each). */
const samplesOfUpload = new Map<string, WavSamples | undefined>();

async function wavSamplesOf(deps: Deps, uploadId: string): Promise<WavSamples | undefined> {
  if (samplesOfUpload.has(uploadId)) return samplesOfUpload.get(uploadId);
  const head = await deps.media.read(deps.media.trackFile(uploadId, 'wav'), { start: 0, end: 64 * 1024 - 1 });
  const samples = head ? wavSamples(await firstBytes(head, 64 * 1024)) : undefined;
  if (samplesOfUpload.size > 50_000) samplesOfUpload.clear();
  samplesOfUpload.set(uploadId, samples);
  return samples;
}

/**
 * The album's tracks that download in other formats: processed (ffmpeg read them once already; a
 * track that failed would fail every format) with an original, in album order.
 */
async function loadAlbum(deps: Deps, row: FundraiserRow): Promise<Album> {
  const listed = row.hasV1Tracks ? [] : queries.listTracks(deps.db, [row.id]);
  const usable = listed.flatMap((track) => {
    const upload = track.status === 'ready' && track.uploadId ? findUpload(deps.db, track.uploadId) : undefined;
    return upload && (upload.format === 'wav' || upload.format === 'mp3')
      ? [{ track, upload, format: upload.format }]
      : [];
  });
  const tracks = await Promise.all(
    usable.map(async ({ track, upload, format }, index): Promise<TrackSource> => ({
      trackId: track.id,
      name: track.name,
      number: index + 1,
      durationSeconds: track.durationSeconds,
      upload: { id: upload.id, format, bytes: upload.bytes, crc32: upload.crc32 },
      samples: format === 'wav' ? await wavSamplesOf(deps, upload.id) : undefined,
    })),
  );
  const artistName = artistSummaries(deps.db, [row.artistId]).get(row.artistId)?.name ?? '';
  return { row, artistName, tracks };
}

/** FLAC and ALAC hold integer samples of up to 24 bits. */
const fitsFlac = (track: TrackSource) =>
  track.samples?.kind === 'pcm' && track.samples.bits > 0 && track.samples.bits <= 24;

/**
 * Why `format` is not offered for these tracks of the album (all of them, or the one a single
 * download asks for), or undefined when it is. Lossless targets come from lossless originals only:
 * an MP3 made into FLAC is bigger, never better.
 */
function unavailableReason(album: Album, format: DownloadFormatId, tracks = album.tracks): string | undefined {
  if (album.row.hasV1Tracks) return format === 'original' ? undefined : legacyAlbumReason;
  if (!downloadFormats[format].lossless) return undefined;
  if (tracks.some((track) => track.upload.format !== 'wav')) return losslessUnavailableReason;
  if (format !== 'wav' && !tracks.every(fitsFlac)) return deepWavReason;
  return undefined;
}

/** The file's year tag: when the album was published (or started, for a draft), in the site's time zone. */
function albumYear(deps: Deps, row: FundraiserRow): number {
  const moment = row.publishedAt ?? row.createdAt;
  return Number(new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone: deps.config.timeZone }).format(moment));
}

/** Each track's recipe in `format`: the original, its tags (the charity in the comment) and the cover. */
function asksFor(deps: Deps, album: Album, format: TranscodeFormat, tracks = album.tracks): TranscodeAsk[] {
  const { row } = album;
  const comment = `A fundraiser for ${row.charityName} (EIN ${formatEin(row.charityEin)}).`;
  const year = albumYear(deps, row);
  return tracks.map((track) => ({
    trackId: track.trackId,
    recipe: {
      uploadId: track.upload.id,
      sourceFormat: track.upload.format,
      format,
      tags: {
        title: track.name,
        artist: album.artistName,
        album: row.name,
        trackNumber: track.number,
        trackTotal: album.tracks.length,
        year,
        comment,
      },
      coverImageId: row.albumCoverId ?? undefined,
    },
  }));
}

/** Bytes per second of audio, where a format's size follows its bitrate. */
const BYTES_PER_SECOND: Partial<Record<DownloadFormatId, number>> = {
  'mp3-320': 40_000,
  // V0 averages about 245 kbps on music.
  'mp3-v0': 30_600,
  'aac-256': 32_200,
  'opus-128': 16_200,
};
/** Lossless compression of music, against the WAV: FLAC and ALAC usually keep 55–65 %. */
const LOSSLESS_SHARE: Partial<Record<DownloadFormatId, number>> = { flac: 0.6, alac: 0.62, wav: 1 };

/** A track's size in `format` before it is made: from its length, or from the WAV original's size. */
function estimatedBytes(track: TrackSource, format: DownloadFormatId): number {
  if (format === 'original') return track.upload.bytes;
  const share = LOSSLESS_SHARE[format];
  if (share !== undefined) return Math.round(track.upload.bytes * share);
  return Math.round((track.durationSeconds ?? 0) * (BYTES_PER_SECOND[format] ?? 0));
}

/** The album's size in `format`: exact for the tracks made already, estimated for the others. */
function albumBytes(deps: Deps, album: Album, format: DownloadFormatId): number {
  if (album.row.hasV1Tracks) {
    const zip = album.row.tracksZipUploadId ? findUpload(deps.db, album.row.tracksZipUploadId) : undefined;
    return zip?.bytes ?? 0;
  }
  if (format === 'original') return album.tracks.reduce((sum, track) => sum + track.upload.bytes, 0);
  const keys = asksFor(deps, album, format).map((ask) => cacheKeyOf(ask.recipe));
  const made = findTranscodes(deps.db, keys);
  return album.tracks.reduce((sum, track, index) => {
    const row = made.get(keys[index]!);
    return sum + (row?.status === 'ready' && row.bytes !== null ? row.bytes : estimatedBytes(track, format));
  }, 0);
}

/**
 * GET /api/fundraisers/{id}/formats: every format with the album's size in it, for anyone who may
 * see the fundraiser (before buying, too).
 */
export async function albumFormats(deps: Deps, session: Session | null, id: number): Promise<AlbumFormats> {
  const row = visibleOrNotFound(session, queries.findFundraiserById(deps.db, id));
  const album = await loadAlbum(deps, row);
  const lossless = album.tracks.length > 0 && album.tracks.every((track) => track.upload.format === 'wav');
  return {
    formats: DOWNLOAD_FORMAT_IDS.map((format): AlbumFormat => {
      const reason = unavailableReason(album, format);
      return {
        id: format,
        label: downloadFormats[format].label,
        // The originals are lossless when every one of them is.
        lossless: format === 'original' ? lossless : downloadFormats[format].lossless,
        available: reason === undefined,
        approxBytes: reason === undefined ? albumBytes(deps, album, format) : 0,
        ...(reason === undefined ? {} : { reason }),
      };
    }),
  };
}

/** The format named in a URL, or 400. */
export function formatOf(value: string | undefined): DownloadFormatId {
  if (value === undefined || !isDownloadFormat(value)) throw invalid(formatMessages.unknownFormat);
  return value;
}

function requireOffered(album: Album, format: DownloadFormatId, tracks = album.tracks) {
  const reason = unavailableReason(album, format, tracks);
  if (reason) throw invalid(reason);
  if (tracks.length === 0) throw notFound(formatMessages.noTracks);
}

/** How far `rows` (one per track of `tracks`) have come. */
function progress(
  format: DownloadFormatId,
  tracks: TrackSource[],
  rows: (TranscodeRow | undefined)[],
  downloadUrl: string,
): FormatPreparation {
  const readyTracks = rows.filter((row) => row?.status === 'ready').length;
  const failedAt = rows.findIndex((row) => row?.status === 'failed');
  const failed = failedAt >= 0 ? tracks[failedAt] : undefined;
  return {
    format,
    status: failed ? 'failed' : readyTracks === tracks.length ? 'ready' : 'preparing',
    readyTracks,
    totalTracks: tracks.length,
    downloadUrl,
    ...(failed
      ? { failed: { trackId: failed.trackId, trackName: failed.name, message: rows[failedAt]?.error ?? '' } }
      : {}),
  };
}

/**
 * POST (`retry`: a failed track is tried again) and GET …/formats/{format}: asks for every track of
 * the album (or only `trackId`) in `format` and answers how far it has come, with where the
 * download will be (`downloadUrl`, as the caller's access reaches it). Asking is idempotent
 * (askForTranscodes: one preparation whoever asks at once), and a GET asks too, so a file evicted
 * from the cache while a page waited is made again instead of waiting forever.
 */
export async function prepareFormat(
  deps: Deps,
  row: FundraiserRow,
  format: DownloadFormatId,
  options: { retry: boolean; trackId?: number; downloadUrl: string },
): Promise<FormatPreparation> {
  const album = await loadAlbum(deps, row);
  const { downloadUrl } = options;
  // A legacy album's one uploaded zip is its original, there already when it has one.
  if (row.hasV1Tracks && format === 'original' && options.trackId === undefined) {
    if (!row.tracksZipUploadId) throw notFound(formatMessages.noZip);
    return originalReady(format, [], downloadUrl);
  }
  const tracks = tracksAsked(album, options.trackId);
  requireOffered(album, format, tracks);
  if (format === 'original') return originalReady(format, tracks, downloadUrl);
  const rows = askForTranscodes(deps.db, asksFor(deps, album, format, tracks), { retryFailed: options.retry });
  return progress(format, tracks, rows, downloadUrl);
}

/** The originals need no preparing. */
const originalReady = (format: DownloadFormatId, tracks: TrackSource[], downloadUrl: string): FormatPreparation => ({
  format,
  status: 'ready',
  readyTracks: tracks.length,
  totalTracks: tracks.length,
  downloadUrl,
});

function tracksAsked(album: Album, trackId: number | undefined): TrackSource[] {
  if (trackId === undefined) return album.tracks;
  const track = album.tracks.find((candidate) => candidate.trackId === trackId);
  if (!track) throw notFound(formatMessages.trackNotFound);
  return [track];
}

/** A download's file name: "Album (FLAC).zip", "03 - Track name.flac". */
const trackFileName = (track: TrackSource, extension: string) => {
  const number = String(track.number).padStart(2, '0');
  return `${number} - ${safeFileName(track.name, `Track ${number}`)}.${extension}`;
};

/**
 * The prepared files of `tracks`, checked on the store: 409 while any is not made yet. A file the
 * cache lists but the store no longer has (a restored backup) is forgotten and asked for again,
 * so the next status says "preparing" rather than the download failing halfway.
 */
async function preparedEntries(
  deps: Deps,
  album: Album,
  format: TranscodeFormat,
  tracks: TrackSource[],
): Promise<ZipStreamEntry[]> {
  const asks = asksFor(deps, album, format, tracks);
  const rows = findTranscodes(
    deps.db,
    asks.map((ask) => cacheKeyOf(ask.recipe)),
  );
  const ready = asks.map((ask) => rows.get(cacheKeyOf(ask.recipe)));
  if (ready.some((row) => row?.status !== 'ready' || !row.file)) throw conflict(formatMessages.preparing);
  const entries = await Promise.all(
    ready.map(async (row, index) => {
      const path = deps.media.transcodeFile(row!.file!);
      const stats = await deps.media.stat(path);
      if (!stats || stats.size !== row!.bytes) {
        forgetTranscode(deps.db, row!.id);
        return null;
      }
      return {
        path,
        name: trackFileName(tracks[index]!, encodings[format].extension),
        size: stats.size,
        mtime: stats.modified,
        crc32: row!.crc32!,
      };
    }),
  );
  if (entries.some((entry) => entry === null)) {
    askForTranscodes(deps.db, asks, { retryFailed: false });
    throw conflict(formatMessages.preparing);
  }
  touchTranscodes(
    deps.db,
    ready.map((row) => row!.id),
  );
  return entries as ZipStreamEntry[];
}

/** The album cover as the zip's cover.jpg, when there is one. */
async function coverEntry(deps: Deps, row: FundraiserRow): Promise<ZipStreamEntry[]> {
  if (!row.albumCoverId) return [];
  const path = deps.media.imageFile(row.albumCoverId, COVER_WIDTH, 'jpg');
  const stats = await deps.media.stat(path);
  const body = stats ? await deps.media.read(path) : null;
  if (!stats || !body) return [];
  // A few hundred kilobytes, read once per download: cheaper than keeping its checksum.
  const { crc32 } = await streamChecksum(body);
  return [{ path, name: 'cover.jpg', size: stats.size, mtime: stats.modified, crc32 }];
}

/**
 * GET …/download?format=ID: the album in `format` as a zip of "NN - Track name.ext" and cover.jpg,
 * once prepared (409 until then). `original` is the uploads as they are (a legacy album's own zip).
 */
export async function formatDownload(deps: Deps, row: FundraiserRow, format: DownloadFormatId): Promise<AlbumDownload> {
  if (format === 'original') {
    const originals = await albumFiles(deps, row);
    if (originals.kind === 'zip') return originals;
    return { ...originals, entries: [...originals.entries, ...(await coverEntry(deps, row))] };
  }
  const album = await loadAlbum(deps, row);
  requireOffered(album, format);
  const fileName = `${safeFileName(row.name, 'album')} (${downloadFormats[format].label}).zip`;
  const tracks = await preparedEntries(deps, album, format, album.tracks);
  return { kind: 'tracks', fileName, entries: [...tracks, ...(await coverEntry(deps, row))] };
}

/** One track's file in `format`: where it is, its type and its download name (409 until prepared). */
export async function trackFormatFile(
  deps: Deps,
  row: FundraiserRow,
  trackId: number,
  format: DownloadFormatId,
): Promise<{ path: string; contentType: string; downloadName: string; version: string }> {
  const album = await loadAlbum(deps, row);
  const tracks = tracksAsked(album, trackId);
  requireOffered(album, format, tracks);
  const [track] = tracks;
  if (format === 'original') {
    const { id, format: extension } = track!.upload;
    const contentType = extension === 'wav' ? 'audio/wav' : 'audio/mpeg';
    return {
      path: deps.media.trackFile(id, extension),
      contentType,
      downloadName: trackFileName(track!, extension),
      version: id,
    };
  }
  const [entry] = await preparedEntries(deps, album, format, [track!]);
  return {
    path: entry!.path,
    contentType: encodings[format].contentType,
    downloadName: entry!.name,
    version: `${entry!.crc32.toString(16)}-${entry!.size}`,
  };
}

/** How long a Data saver request waits for its file before answering 503 (the save tries again). */
const OFFLINE_LOW_WAIT_MS = 60_000;
const OFFLINE_LOW_POLL_MS = 200;
/** What the 503 asks the save to wait before it asks again. */
const OFFLINE_LOW_RETRY_AFTER_MS = 5_000;

export const offlineLowMessages = {
  failed: 'This track could not be prepared for Data saver. Please save it in Standard quality.',
  slow: 'This track is still being prepared for Data saver. Please try again in a moment.',
};

const offlineLowAsk = (track: TrackSource): TranscodeAsk => ({
  trackId: track.trackId,
  recipe: { uploadId: track.upload.id, sourceFormat: track.upload.format, format: 'offline-low' },
});

/**
 * GET /api/tracks/{id}/stream?quality=low (DESIGN.md, contract details for wave 3, offline
 * quality), for a caller already let in: the track as the offline Data saver (AAC 96 kbps), made
 * from the original on the first request and cached. A made file is answered at once (a save's
 * ranges ask nothing more). Otherwise the request waits for it; the first ask also asks for the
 * album's other tracks, behind it, so a save going through the album finds each made or under
 * way. Only the track asked for is tried again after a failure, once per request: a save that
 * fails gives up (409) rather than have the server encode a broken track again and again.
 * `signal` ends the wait when the caller goes away.
 */
export async function offlineLowFile(
  deps: Deps,
  fundraiserId: number,
  trackId: number,
  signal?: AbortSignal,
): Promise<{ path: string; contentType: string }> {
  const row = queries.findFundraiserIncludingDeleted(deps.db, fundraiserId);
  const album = row ? await loadAlbum(deps, row) : undefined;
  const track = album?.tracks.find((candidate) => candidate.trackId === trackId);
  if (!track || !album) throw notFound(formatMessages.trackNotFound);
  const ask = offlineLowAsk(track);
  const key = cacheKeyOf(ask.recipe);
  const deadline = Date.now() + OFFLINE_LOW_WAIT_MS;
  let asked = false;
  for (;;) {
    const made = findTranscode(deps.db, key);
    if (made?.status === 'ready' && made.file) {
      const path = deps.media.transcodeFile(made.file);
      if (await deps.media.stat(path)) {
        touchTranscodes(deps.db, [made.id]);
        return { path, contentType: encodings['offline-low'].contentType };
      }
      // Listed but gone (a restored backup, media moved to a bucket): made again.
      forgetTranscode(deps.db, made.id);
      continue;
    }
    if (made?.status === 'failed' && asked) throw conflict(offlineLowMessages.failed);
    if (!asked) {
      const others = album.tracks.filter((other) => other !== track).map(offlineLowAsk);
      askForTranscodes(deps.db, [ask], { retryFailed: true, first: true, attempts: 1 });
      askForTranscodes(deps.db, others, { retryFailed: false, first: true, attempts: 1 });
      asked = true;
    } else if (!made) {
      // Evicted while this request waited (a full cache): asked for again.
      askForTranscodes(deps.db, [ask], { retryFailed: false, first: true, attempts: 1 });
    }
    if (Date.now() > deadline) throw unavailable(offlineLowMessages.slow, OFFLINE_LOW_RETRY_AFTER_MS);
    if (signal?.aborted) throw unavailable(offlineLowMessages.slow, OFFLINE_LOW_RETRY_AFTER_MS);
    await sleep(OFFLINE_LOW_POLL_MS);
  }
}
