import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fundraisers, fundraiserTracks } from '../../db/schema';

/** A track with what delivering its audio needs to know about its fundraiser. */
export type TrackMedia = {
  id: number;
  status: 'processing' | 'ready' | 'failed';
  streamFile: string | null;
  previewFile: string | null;
  /** The original upload (the download formats and Data saver are made from it). */
  uploadId: string | null;
  fundraiserId: number;
  ownerId: number;
  fundraiserStatus: 'DRAFT' | 'PUBLISHED';
  fundraiserDeletedAt: Date | null;
};

/** The lookup of every audio request, prepared once per database (as drizzle would rebuild it each time). */
function prepareTrackMedia(db: Db) {
  return db
    .select({
      id: fundraiserTracks.id,
      status: fundraiserTracks.status,
      streamFile: fundraiserTracks.streamFile,
      previewFile: fundraiserTracks.previewFile,
      uploadId: fundraiserTracks.uploadId,
      fundraiserId: fundraisers.id,
      ownerId: fundraisers.userId,
      fundraiserStatus: fundraisers.status,
      fundraiserDeletedAt: fundraisers.deletedAt,
    })
    .from(fundraiserTracks)
    .innerJoin(fundraisers, eq(fundraisers.id, fundraiserTracks.fundraiserId))
    .where(eq(fundraiserTracks.id, sql.placeholder('trackId')))
    .prepare();
}

const trackMediaStatements = new WeakMap<Db, ReturnType<typeof prepareTrackMedia>>();

/**
 * The track, deleted fundraiser or not: a deleted fundraiser's full tracks stay its buyers'
 * (server/access/can-stream.ts), so the service decides what a deleted one still serves.
 */
export function findTrackMedia(db: Db, trackId: number): TrackMedia | undefined {
  let statement = trackMediaStatements.get(db);
  if (!statement) trackMediaStatements.set(db, (statement = prepareTrackMedia(db)));
  return statement.get({ trackId });
}
