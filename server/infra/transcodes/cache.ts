import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { jobs, transcodes } from '../../db/schema';
import { encodings, type TrackTags, type TranscodeFormat } from '../audio/encode';
import { enqueue } from '../jobs/queue';

// The transcode cache's records (issue 27; DESIGN.md, contract details for wave 3, formats): which
// files are asked for, made, or failed, and which go when the cache is full. The files themselves
// are made by the transcode job (job.ts).

export const TRANSCODE_JOB = 'transcode-track';

/** Everything a transcode depends on: the same recipe is the same file. */
export const recipeSchema = z.object({
  uploadId: z.string(),
  sourceFormat: z.enum(['wav', 'mp3']),
  format: z.enum(['mp3-320', 'mp3-v0', 'aac-256', 'opus-128', 'flac', 'alac', 'wav', 'offline-low']),
  tags: z
    .object({
      title: z.string(),
      artist: z.string(),
      album: z.string(),
      trackNumber: z.number().int(),
      trackTotal: z.number().int(),
      year: z.number().int().optional(),
      comment: z.string(),
    })
    .optional(),
  /** The album cover's image upload, embedded where the format allows. */
  coverImageId: z.string().optional(),
});
export type TranscodeRecipe = z.infer<typeof recipeSchema> & { format: TranscodeFormat; tags?: TrackTags };

export type TranscodeRow = typeof transcodes.$inferSelect;

/**
 * The cache key: the recipe and the encoder's settings (encode.ts), hashed. A new track version
 * (another upload), a renamed track or album, a new cover or new encoder settings make another key,
 * so a stale file is never served; the old one ages out of the cache.
 */
export function cacheKeyOf(recipe: TranscodeRecipe): string {
  const identity = [
    recipe.uploadId,
    recipe.format,
    encodings[recipe.format].settings,
    recipe.tags ?? null,
    recipe.coverImageId ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url');
}

export type TranscodeAsk = { recipe: TranscodeRecipe; trackId?: number };

/**
 * Asks for each file. One that nobody asked for yet gets its row and its job; one being made or
 * made already is left as it is, so two tabs asking at once (or two server processes) start one
 * preparation: the row's unique key decides, inside one IMMEDIATE transaction. A failed one is
 * tried again when `retryFailed` (the page's Try again). `first` puts the jobs ahead of the queue's
 * others (a player waiting for its Data saver file); `attempts` is how often a job tries before it
 * fails. A row left 'preparing' without a job (its job given up, and the server stopped before the
 * row said so) gets one again. The files made already count as used now. Answers the rows in the
 * order asked.
 */
export function askForTranscodes(
  db: Db,
  asks: TranscodeAsk[],
  options: { retryFailed: boolean; first?: boolean; attempts?: number },
): TranscodeRow[] {
  const keyed = asks.map((ask) => ({ ...ask, key: cacheKeyOf(ask.recipe) }));
  // Jobs are claimed in run_at order: the epoch comes before every job queued in the usual way.
  const jobOptions = { runAt: options.first ? new Date(0) : undefined, maxAttempts: options.attempts ?? 3 };
  return db.transaction(
    (tx) => {
      for (const { recipe, trackId, key } of keyed) {
        const inserted = tx
          .insert(transcodes)
          .values({
            cacheKey: key,
            uploadId: recipe.uploadId,
            format: recipe.format,
            trackId: trackId ?? null,
            recipe: JSON.stringify(recipe),
            status: 'preparing',
          })
          .onConflictDoNothing({ target: transcodes.cacheKey })
          .returning({ id: transcodes.id })
          .get();
        if (inserted) {
          enqueue(tx, TRANSCODE_JOB, { key }, jobOptions);
          continue;
        }
        const row = tx.select({ status: transcodes.status }).from(transcodes).where(eq(transcodes.cacheKey, key)).get();
        if (row?.status === 'preparing' && !hasLiveJob(tx, key)) {
          enqueue(tx, TRANSCODE_JOB, { key }, jobOptions);
        } else if (row?.status === 'failed' && options.retryFailed) {
          tx.update(transcodes).set({ status: 'preparing', error: null }).where(eq(transcodes.cacheKey, key)).run();
          enqueue(tx, TRANSCODE_JOB, { key }, jobOptions);
        }
      }
      const keys = keyed.map(({ key }) => key);
      // Asked for is used: the files already made for this ask are the last to be evicted while
      // the others are made (an album's first tracks must not make room for its last).
      tx.update(transcodes)
        .set({ lastUsedAt: new Date() })
        .where(and(inArray(transcodes.cacheKey, keys), eq(transcodes.status, 'ready')))
        .run();
      const rows = findTranscodes(tx, keys);
      return keyed.map(({ key }) => rows.get(key)!);
    },
    { behavior: 'immediate' },
  );
}

/** Whether a job for `key` waits or runs (its payload is written by enqueue's JSON.stringify, so compared as text). */
function hasLiveJob(db: Db, key: string): boolean {
  const live = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.status, ['queued', 'running']),
        eq(jobs.kind, TRANSCODE_JOB),
        eq(jobs.payload, JSON.stringify({ key })),
      ),
    )
    .get();
  return live !== undefined;
}

/** The rows of these keys, by key (a key nobody asked for is absent). */
export function findTranscodes(db: Db, keys: string[]): Map<string, TranscodeRow> {
  const found = new Map<string, TranscodeRow>();
  // SQLite allows 32,766 variables; an album has at most a few dozen tracks.
  for (let start = 0; start < keys.length; start += 500) {
    const slice = keys.slice(start, start + 500);
    for (const row of db.select().from(transcodes).where(inArray(transcodes.cacheKey, slice)).all()) {
      found.set(row.cacheKey, row);
    }
  }
  return found;
}

export function findTranscode(db: Db, key: string): TranscodeRow | undefined {
  return db.select().from(transcodes).where(eq(transcodes.cacheKey, key)).get();
}

/** Marks the files used now (a download, a Data saver stream): the last to be evicted. */
export function touchTranscodes(db: Db, ids: number[], now = new Date()) {
  if (ids.length === 0) return;
  db.update(transcodes).set({ lastUsedAt: now }).where(inArray(transcodes.id, ids)).run();
}

/** The job made the file: ready, unless the row went meanwhile (then the caller removes the file). */
export function markReady(db: Db, key: string, made: { file: string; bytes: number; crc32: number }): boolean {
  const { changes } = db
    .update(transcodes)
    .set({ status: 'ready', ...made, error: null, lastUsedAt: new Date() })
    .where(and(eq(transcodes.cacheKey, key), eq(transcodes.status, 'preparing')))
    .run();
  return changes > 0;
}

export function markFailed(db: Db, key: string, error: string) {
  db.update(transcodes)
    .set({ status: 'failed', error: error.slice(0, 500) })
    .where(and(eq(transcodes.cacheKey, key), eq(transcodes.status, 'preparing')))
    .run();
}

/** A ready row whose file is gone (a restored backup, a hand-cleaned disk): forgotten, so it is made again. */
export function forgetTranscode(db: Db, id: number) {
  db.delete(transcodes).where(eq(transcodes.id, id)).run();
}

/** The bytes of every ready file. */
export function cachedBytes(db: Db): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${transcodes.bytes}), 0)` })
    .from(transcodes)
    .where(eq(transcodes.status, 'ready'))
    .get();
  return row?.total ?? 0;
}

/**
 * Takes the least recently used ready files off the books until the cache holds at most
 * `limitBytes`. Files used since `keepUsedSince` stay whatever the total (an album being prepared,
 * whose page asks every few seconds, or being downloaded): an album bigger than the cache still
 * finishes, and a download never loses a file halfway; the cache then goes over its limit for a
 * while, and comes back under at a later eviction. Answers the files to remove from the store;
 * their rows are gone already, so nobody is handed one of them.
 */
export function evictOverLimit(db: Db, limitBytes: number, keepUsedSince: Date): string[] {
  return db.transaction(
    (tx) => {
      let total = cachedBytes(tx);
      if (total <= limitBytes) return [];
      const candidates = tx
        .select({ id: transcodes.id, file: transcodes.file, bytes: transcodes.bytes })
        .from(transcodes)
        .where(and(eq(transcodes.status, 'ready'), lt(transcodes.lastUsedAt, keepUsedSince)))
        .orderBy(asc(transcodes.lastUsedAt), asc(transcodes.id))
        .all();
      const evicted: string[] = [];
      for (const candidate of candidates) {
        if (total <= limitBytes) break;
        tx.delete(transcodes).where(eq(transcodes.id, candidate.id)).run();
        total -= candidate.bytes ?? 0;
        if (candidate.file) evicted.push(candidate.file);
      }
      return evicted;
    },
    { behavior: 'immediate' },
  );
}

/** Whether a file in media/transcodes is a cached transcode's (the hourly sweep removes any other). */
export function transcodeFileInUse(db: Db, name: string): boolean {
  return db.select({ id: transcodes.id }).from(transcodes).where(eq(transcodes.file, name)).get() !== undefined;
}
