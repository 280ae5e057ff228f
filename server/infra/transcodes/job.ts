import fs from 'node:fs/promises';
import { z } from 'zod';
import type { Deps } from '../../deps';
import { type CoverImage, encodeTrack, encodings, type SourceAudio } from '../audio/encode';
import { type JobHandler, PermanentJobError } from '../jobs/runner';
import { fileChecksum } from '../storage/checksum';
import { newTranscodeName } from '../storage/media';
import {
  evictOverLimit,
  findTranscode,
  markFailed,
  markReady,
  recipeSchema,
  TRANSCODE_JOB,
  type TranscodeRecipe,
} from './cache';

// The transcode job (issue 27): one track in one format per job, from its original upload, in the
// durable job queue, so a preparation survives restarts and crashes (a job cut short runs again;
// ffmpeg's half-written file goes with the process registry). When it is made the cache is
// trimmed to TRANSCODE_CACHE_MB.

const payloadSchema = z.object({ key: z.string() });

type TranscodeDeps = Pick<Deps, 'db' | 'media' | 'logger' | 'ffmpeg' | 'config'>;

/** What a fan reads when a track could not be made; the log has ffmpeg's own words. */
export const transcodeFailedMessage = 'This track could not be prepared in this format. Please try again later.';

/**
 * Files used this recently are never evicted (cache.ts, evictOverLimit): longer than a page waits
 * between its questions and than most downloads take.
 */
export const RECENT_USE_MS = 30 * 60 * 1000;

/** The cover's largest JPEG rendition (the zip's cover.jpg is the same file). */
export const COVER_WIDTH = 1200;

/** A JPEG's width and height, from its frame header (SOFn): no image library for two numbers. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < jpeg.length) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

async function readSource(file: string): Promise<SourceAudio> {
  try {
    const { parseFile } = await import('music-metadata');
    const { format } = await parseFile(file, { duration: false, skipCovers: true });
    return { sampleRate: format.sampleRate, channels: format.numberOfChannels };
  } catch {
    // ffmpeg reads what music-metadata cannot; the encoders' own defaults then apply.
    return {};
  }
}

/** Runs `use` with the album cover on local disk, or with none when there is no cover (or it is gone). */
async function withCover<T>(
  deps: TranscodeDeps,
  coverImageId: string | undefined,
  use: (cover: CoverImage | undefined) => Promise<T>,
): Promise<T> {
  if (!coverImageId) return use(undefined);
  const stored = deps.media.imageFile(coverImageId, COVER_WIDTH, 'jpg');
  let used = false;
  const result = await deps.media.withLocalCopy(stored, async (path) => {
    used = true;
    const size = jpegSize(await fs.readFile(path));
    return use(size ? { path, ...size } : undefined);
  });
  return used ? (result as T) : use(undefined);
}

/** Makes the file of `recipe` on local disk at `output`: its CRC-32 and length, or null when the original is gone. */
async function make(deps: TranscodeDeps, recipe: TranscodeRecipe, output: string) {
  const original = deps.media.trackFile(recipe.uploadId, recipe.sourceFormat);
  return deps.media.withLocalCopy(original, (input) =>
    withCover(deps, recipe.coverImageId, async (cover) => {
      const source = await readSource(input);
      await encodeTrack(deps.ffmpeg, { input, source, output, format: recipe.format, tags: recipe.tags, cover });
      return fileChecksum(output);
    }),
  );
}

export function transcodeJobHandlers(deps: TranscodeDeps): Record<string, JobHandler> {
  const { db, media, logger } = deps;
  return {
    [TRANSCODE_JOB]: {
      async run(payload) {
        const parsed = payloadSchema.safeParse(payload);
        if (!parsed.success) throw new PermanentJobError(`bad job payload: ${parsed.error.message}`);
        const { key } = parsed.data;
        const row = findTranscode(db, key);
        // Made by an earlier run, or evicted and asked for again under another job: nothing to do.
        if (!row || row.status !== 'preparing') return;
        const recipe = recipeSchema.parse(JSON.parse(row.recipe));
        const name = newTranscodeName(encodings[recipe.format].extension);
        const output = media.transcodeFile(name);
        let made;
        try {
          made = await make(deps, recipe, output);
          if (!made) throw new PermanentJobError(`the original upload ${recipe.uploadId} is gone`);
          await media.store(output);
        } catch (error) {
          await media.discard(output);
          throw error;
        }
        if (!markReady(db, key, { file: name, bytes: made.bytes, crc32: made.crc32 })) {
          await media.remove(output);
          return;
        }
        const evicted = evictOverLimit(db, deps.config.transcodeCacheBytes, new Date(Date.now() - RECENT_USE_MS));
        await media.discard(...evicted.map((file) => media.transcodeFile(file)));
        if (evicted.length) logger.info({ count: evicted.length }, 'transcode cache: evicted the least recently used');
      },
      giveUp(payload, error) {
        const parsed = payloadSchema.safeParse(payload);
        if (!parsed.success) return;
        logger.error({ err: error, key: parsed.data.key }, 'transcode: gave up on a track');
        markFailed(db, parsed.data.key, transcodeFailedMessage);
      },
    },
  };
}
