import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fundraisers, fundraiserTracks } from '../../db/schema';

/** A track with what delivering its audio needs to know about its fundraiser. */
export type TrackMedia = {
  id: number;
  status: 'processing' | 'ready' | 'failed';
  streamFile: string | null;
  previewFile: string | null;
  fundraiserId: number;
  ownerId: number;
  fundraiserStatus: 'DRAFT' | 'PUBLISHED';
};

/** The track, if its fundraiser is still there (a deleted fundraiser's audio is gone with it). */
export function findTrackMedia(db: Db, trackId: number): TrackMedia | undefined {
  return db
    .select({
      id: fundraiserTracks.id,
      status: fundraiserTracks.status,
      streamFile: fundraiserTracks.streamFile,
      previewFile: fundraiserTracks.previewFile,
      fundraiserId: fundraisers.id,
      ownerId: fundraisers.userId,
      fundraiserStatus: fundraisers.status,
    })
    .from(fundraiserTracks)
    .innerJoin(fundraisers, eq(fundraisers.id, fundraiserTracks.fundraiserId))
    .where(and(eq(fundraiserTracks.id, trackId), isNull(fundraisers.deletedAt)))
    .get();
}
