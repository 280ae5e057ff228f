import fs from 'node:fs';
import type { DownloadFormatId } from '../../../shared/download-formats';
import type { FfmpegRunner } from './ffmpeg';

// A track in another format than its original (issue 27): the download formats fans choose and
// the offline Data saver, each made by ffmpeg from the original upload (never from the streaming
// rendition: a copy of a copy loses twice). Downloads carry their tags and the album cover where
// the format holds one; the Data saver file carries neither (it only ever plays in this site).

export type TranscodeFormat = Exclude<DownloadFormatId, 'original'> | 'offline-low';

export type TrackTags = {
  title: string;
  artist: string;
  album: string;
  trackNumber: number;
  trackTotal: number;
  year?: number;
  /** Says which charity the album raises money for. */
  comment: string;
};

/** The album cover as a JPEG on local disk, with its size (a FLAC picture block names it). */
export type CoverImage = { path: string; width: number; height: number };

/** What the original is, as far as choosing the output's sample rate needs. */
export type SourceAudio = { sampleRate?: number; channels?: number };

type Encoding = {
  extension: string;
  contentType: string;
  /**
   * Part of every cache key of the format: change it when the arguments change, and no file made
   * with the old ones is served again.
   */
  settings: string;
  /** How the cover goes in: a picture stream (ID3 APIC, MP4 covr, FLAC PICTURE), a Vorbis comment, or not at all. */
  cover: 'picture-stream' | 'vorbis-comment' | 'none';
  tagged: boolean;
  args: (source: SourceAudio) => string[];
};

/**
 * MP3 and AAC files play everywhere at 44.1 or 48 kHz: a 48 kHz original keeps its rate, any
 * other goes to 44.1 kHz (a 96 kHz master down, an 8 kHz voice memo up, which a lossy copy may:
 * only the lossless formats promise the original's own samples).
 */
const lossyRate = (source: SourceAudio) => ['-ar', source.sampleRate === 48_000 ? '48000' : '44100'];

/** MP3 holds at most two channels. */
const stereoAtMost = (source: SourceAudio) => (source.channels && source.channels > 2 ? ['-ac', '2'] : []);

export const encodings: Record<TranscodeFormat, Encoding> = {
  'mp3-320': {
    extension: 'mp3',
    contentType: 'audio/mpeg',
    settings: 'lame cbr 320k id3v2.3',
    cover: 'picture-stream',
    tagged: true,
    args: (source) => [
      ...['-c:a', 'libmp3lame', '-b:a', '320k', ...lossyRate(source), ...stereoAtMost(source)],
      ...['-id3v2_version', '3', '-f', 'mp3'],
    ],
  },
  'mp3-v0': {
    extension: 'mp3',
    contentType: 'audio/mpeg',
    settings: 'lame vbr q0 id3v2.3',
    cover: 'picture-stream',
    tagged: true,
    args: (source) => [
      ...['-c:a', 'libmp3lame', '-q:a', '0', ...lossyRate(source), ...stereoAtMost(source)],
      ...['-id3v2_version', '3', '-f', 'mp3'],
    ],
  },
  'aac-256': {
    extension: 'm4a',
    contentType: 'audio/mp4',
    settings: 'aac lc 256k ipod faststart',
    cover: 'picture-stream',
    tagged: true,
    args: (source) => ['-c:a', 'aac', '-b:a', '256k', ...lossyRate(source), '-movflags', '+faststart', '-f', 'ipod'],
  },
  'opus-128': {
    extension: 'opus',
    contentType: 'audio/ogg; codecs=opus',
    settings: 'libopus vbr 128k ogg',
    cover: 'vorbis-comment',
    tagged: true,
    args: () => ['-c:a', 'libopus', '-b:a', '128k', '-vbr', 'on', '-f', 'ogg'],
  },
  flac: {
    extension: 'flac',
    contentType: 'audio/flac',
    settings: 'flac level 5',
    cover: 'picture-stream',
    tagged: true,
    // The original's sample rate and depth: never upsampled, never dithered.
    args: () => ['-c:a', 'flac', '-compression_level', '5', '-f', 'flac'],
  },
  alac: {
    extension: 'm4a',
    contentType: 'audio/mp4',
    settings: 'alac ipod faststart',
    cover: 'picture-stream',
    tagged: true,
    args: () => ['-c:a', 'alac', '-movflags', '+faststart', '-f', 'ipod'],
  },
  wav: {
    extension: 'wav',
    contentType: 'audio/wav',
    settings: 'wav copy riff-info',
    // WAV has no place for a picture that players read; its tags go in the RIFF INFO chunk.
    cover: 'none',
    tagged: true,
    // Only ever made from a WAV original: the samples are copied, not decoded and encoded again.
    args: () => ['-c:a', 'copy', '-f', 'wav'],
  },
  'offline-low': {
    extension: 'm4a',
    contentType: 'audio/mp4',
    settings: 'aac lc 96k 44.1k mp4 faststart bitexact',
    cover: 'none',
    tagged: false,
    // faststart puts the index first, so a player can seek in a file that is still arriving.
    // bitexact: made again after an eviction, the file is the same bytes, so a save that resumes
    // with a Range request across the two never mixes them.
    args: () => [
      ...['-c:a', 'aac', '-b:a', '96k', '-ar', '44100', '-movflags', '+faststart'],
      ...['-fflags', '+bitexact', '-flags:a', '+bitexact', '-f', 'mp4'],
    ],
  },
};

/**
 * ffmetadata escapes '=', ';', '#' and '\' with a backslash. Control characters (a name may hold
 * a CR or a NUL: names are only trimmed) become spaces: ffmpeg ends a line or a value at them.
 */
const escapeMetadata = (value: string) =>
  value.replace(/\p{Cc}/gu, ' ').replace(/[=;#\\]/g, (character) => `\\${character}`);

/**
 * A FLAC METADATA_BLOCK_PICTURE (FLAC format, section 'PICTURE'), base64: how Ogg Opus files
 * carry their cover, as a Vorbis comment.
 */
function vorbisPicture(cover: CoverImage, jpeg: Buffer): string {
  const mime = Buffer.from('image/jpeg');
  const block = Buffer.alloc(32 + mime.length + jpeg.length);
  let at = 0;
  const u32 = (value: number) => {
    block.writeUInt32BE(value, at);
    at += 4;
  };
  u32(3); // front cover
  u32(mime.length);
  at += mime.copy(block, at);
  u32(0); // no description
  u32(cover.width);
  u32(cover.height);
  u32(24); // colour depth of a JPEG
  u32(0); // not indexed
  u32(jpeg.length);
  jpeg.copy(block, at);
  return block.toString('base64');
}

/** The tags as an ffmetadata file: names and titles never reach ffmpeg's command line. */
async function writeMetadataFile(file: string, tags: TrackTags, cover: CoverImage | undefined) {
  const lines = [
    ';FFMETADATA1',
    `title=${escapeMetadata(tags.title)}`,
    `artist=${escapeMetadata(tags.artist)}`,
    `album_artist=${escapeMetadata(tags.artist)}`,
    `album=${escapeMetadata(tags.album)}`,
    `track=${tags.trackNumber}/${tags.trackTotal}`,
    ...(tags.year ? [`date=${tags.year}`] : []),
    `comment=${escapeMetadata(tags.comment)}`,
  ];
  if (cover)
    lines.push(
      `METADATA_BLOCK_PICTURE=${escapeMetadata(vorbisPicture(cover, await fs.promises.readFile(cover.path)))}`,
    );
  await fs.promises.writeFile(file, `${lines.join('\n')}\n`, { flag: 'wx' });
}

export type EncodeRequest = {
  input: string;
  source: SourceAudio;
  output: string;
  format: TranscodeFormat;
  tags?: TrackTags;
  cover?: CoverImage;
  timeoutMs?: number;
};

/** ffmpeg could not make the file: its last words, for the log and the job's last_error. */
export class EncodeFailed extends Error {}

/**
 * Writes `input` to `output` in `format`, tagged. Throws EncodeFailed when ffmpeg fails; leaves
 * no output behind on failure.
 */
export async function encodeTrack(ffmpeg: FfmpegRunner, request: EncodeRequest): Promise<void> {
  const encoding = encodings[request.format];
  const tags = encoding.tagged ? request.tags : undefined;
  const metadataFile = `${request.output}.ffmetadata`;
  const cover = encoding.cover === 'none' ? undefined : request.cover;
  const inputs = ['-i', request.input];
  const maps = ['-map', '0:a:0', '-map_chapters', '-1'];
  let nextInput = 1;
  if (cover && encoding.cover === 'picture-stream') {
    inputs.push('-i', cover.path);
    maps.push(
      ...['-map', `${nextInput}:v:0`, '-c:v', 'copy', '-disposition:v:0', 'attached_pic'],
      ...['-metadata:s:v:0', 'title=Album cover', '-metadata:s:v:0', 'comment=Cover (front)'],
    );
    nextInput++;
  }
  if (tags) {
    await writeMetadataFile(metadataFile, tags, encoding.cover === 'vorbis-comment' ? cover : undefined);
    inputs.push('-f', 'ffmetadata', '-i', metadataFile);
    maps.push('-map_metadata', String(nextInput));
  } else {
    maps.push('-map_metadata', '-1');
  }
  const args = [
    ...['-hide_banner', '-nostats', '-nostdin', '-y', ...inputs, ...maps],
    // The original's per-stream tags (an encoder's name) stay behind; the file's own are above.
    ...['-map_metadata:s:a', '-1', ...encoding.args(request.source), request.output],
  ];
  try {
    const result = await ffmpeg.run(args, request.timeoutMs ?? 30 * 60 * 1000, [request.output, metadataFile]);
    if (result.signal) throw new EncodeFailed(`ffmpeg was stopped by ${result.signal}`);
    if (result.code !== 0) {
      throw new EncodeFailed(`ffmpeg failed: ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
    }
  } catch (error) {
    await fs.promises.rm(request.output, { force: true });
    throw error;
  } finally {
    await fs.promises.rm(metadataFile, { force: true });
  }
}
