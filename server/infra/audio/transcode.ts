import fs from 'node:fs';
import type { FfmpegRunner } from './ffmpeg';

// Audio processing with ffmpeg (which one: ./ffmpeg.ts). One ffmpeg run per track decodes the
// original once and writes the streaming rendition, the 30-second preview and an EBU R128
// loudness measurement together.

export const STREAM_BITRATE = '192k';
export const PREVIEW_SECONDS = 30;
/** ebur128 reports -70 LUFS (its absolute gate) for digital silence; nothing audible is that quiet. */
export const SILENCE_LUFS = -70;

/** Something wrong with the recording itself; `message` is written for the artist. */
export class AudioProblem extends Error {
  constructor(
    readonly reason: 'unreadable' | 'silent',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const audioMessages = {
  unreadable: 'This file could not be read as audio. Please export it again as WAV or MP3 and upload it again.',
  silent: 'This track is silent. Please check the recording and upload it again.',
};

export type RenderedAudio = {
  durationSeconds: number;
  loudnessLufs: number;
  tags: { title?: string; artist?: string; album?: string };
};

/** The integrated loudness from ebur128's summary at the end of ffmpeg's log. */
function integratedLoudness(stderr: string): number | undefined {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const match = /Integrated loudness:\s*I:\s*(-?[\d.]+|-inf)\s*LUFS/.exec(summary);
  if (!match) return undefined;
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

async function readMetadata(file: string) {
  try {
    // Loaded on first use: about 9 MB that an idle server need not hold (issue 13's footprint).
    const { parseFile } = await import('music-metadata');
    const metadata = await parseFile(file, { duration: true });
    return { duration: metadata.format.duration, tags: metadata.common };
  } catch {
    return undefined;
  }
}

/**
 * Renders `input` to `out.stream` (MP3 192 kbps CBR, 44.1 kHz) and `out.preview` (its first 30 s
 * with a short fade-out), and measures it. Throws AudioProblem for a file that is not usable audio;
 * other errors (a killed process, a full disk) are worth retrying. Leaves no output on failure.
 */
export async function renderTrack(
  ffmpeg: FfmpegRunner,
  input: string,
  out: { stream: string; preview: string },
  options: { timeoutMs?: number } = {},
): Promise<RenderedAudio> {
  const encode = ['-map_metadata', '-1', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', STREAM_BITRATE, '-f', 'mp3'];
  // The preview ends just before 30 s: MP3 frames round the length up by a few milliseconds.
  const previewEnd = PREVIEW_SECONDS - 0.05;
  const filters = [
    '[0:a:0]asplit=3[stream][cut][measure]',
    `[cut]atrim=0:${previewEnd},afade=t=out:st=${previewEnd - 2}:d=2[preview]`,
    '[measure]ebur128[measured]',
  ].join(';');
  const args = [
    ...['-hide_banner', '-nostats', '-nostdin', '-y', '-i', input, '-filter_complex', filters],
    ...['-map', '[stream]', ...encode, out.stream],
    ...['-map', '[preview]', ...encode, out.preview],
    ...['-map', '[measured]', '-f', 'null', '-'],
  ];
  const removeOutputs = () =>
    Promise.all([fs.promises.rm(out.stream, { force: true }), fs.promises.rm(out.preview, { force: true })]);
  try {
    const result = await ffmpeg.run(args, options.timeoutMs ?? 15 * 60 * 1000, [out.stream, out.preview]);
    if (result.signal) throw new Error(`ffmpeg was stopped by ${result.signal}`);
    if (result.code !== 0) {
      // ffmpeg's own words go to the log (as the cause), not to the artist.
      const detail = result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new AudioProblem('unreadable', audioMessages.unreadable, { cause: detail });
    }
    const loudnessLufs = integratedLoudness(result.stderr);
    if (loudnessLufs === undefined) throw new Error('ffmpeg reported no loudness measurement');
    if (loudnessLufs <= SILENCE_LUFS) throw new AudioProblem('silent', audioMessages.silent);
    const original = await readMetadata(input);
    const duration = original?.duration ?? (await readMetadata(out.stream))?.duration;
    if (!duration || !Number.isFinite(duration)) throw new AudioProblem('unreadable', audioMessages.unreadable);
    const tags = original?.tags;
    return {
      durationSeconds: Math.max(1, Math.round(duration)),
      loudnessLufs: Math.round(loudnessLufs * 10) / 10,
      tags: { title: tags?.title, artist: tags?.artist, album: tags?.album },
    };
  } catch (error) {
    await removeOutputs();
    throw error;
  }
}
