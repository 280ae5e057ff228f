import * as z from 'zod/mini';
import { listEnvelope } from './api';

// What Your music and the player are given (spec part 1 sections 2, 3 and 7; DESIGN.md section 4).

/** A library list item (spec part 1 section 3, 'Library album'). */
export const libraryAlbumSchema = z.object({
  projectId: z.int(),
  /** The fundraiser's slug, or its id as text when it has none (a draft): the album page takes either. */
  projectSlug: z.string(),
  artistId: z.int(),
  projectName: z.string(),
  artistName: z.string(),
  image: z.optional(z.string()),
  /** ISO date: when the fundraiser was published (created, for a draft), or when it was bought. */
  date: z.string(),
});
export type LibraryAlbum = z.infer<typeof libraryAlbumSchema>;

export const libraryAlbumListSchema = listEnvelope(libraryAlbumSchema);
export type LibraryAlbumList = z.infer<typeof libraryAlbumListSchema>;

/** A track of a library album. `src` is the full stream, absent until the track is processed. */
export const libraryTrackSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** 0-based position in the album. */
  index: z.int().check(z.nonnegative()),
  src: z.optional(z.string()),
  durationSeconds: z.nullable(z.number()),
  /** Integrated loudness (EBU R128), so the player can even out levels between albums. */
  loudnessLufs: z.nullable(z.number()),
  status: z.enum(['processing', 'ready', 'failed']),
});
export type LibraryTrack = z.infer<typeof libraryTrackSchema>;

/** GET /api/music-library/album/{id}: the album with what the album page plays and downloads. */
export const libraryAlbumDetailSchema = z.extend(libraryAlbumSchema, {
  /** The artist's page; absent once the artist is deleted. */
  artistSlug: z.optional(z.string()),
  tracks: z.array(libraryTrackSchema),
  hasV1Tracks: z.boolean(),
  /** The fundraiser was deleted: its buyers keep the music, but its page is gone. */
  fundraiserDeleted: z.optional(z.boolean()),
  /** The album zip ('Download songs'), when there is anything to download. */
  tracksZipLink: z.optional(z.string()),
});
export type LibraryAlbumDetail = z.infer<typeof libraryAlbumDetailSchema>;

/** A track in the player (spec part 1 section 3, 'Player track'), plus its id and length. */
export const playerTrackSchema = z.object({
  src: z.string(),
  name: z.string(),
  index: z.int().check(z.nonnegative()),
  artistName: z.string(),
  projectName: z.string(),
  projectSlug: z.string(),
  albumCoverSrc: z.optional(z.string()),
  trackId: z.optional(z.int()),
  durationSeconds: z.optional(z.nullable(z.number())),
  loudnessLufs: z.optional(z.nullable(z.number())),
  /** Where the track's title leads; the album page in Your music when absent. */
  albumPath: z.optional(z.string()),
});
export type PlayerTrack = z.infer<typeof playerTrackSchema>;

/**
 * Audio URLs (DESIGN.md section 4). `version` names the rendition file: a re-render gets a new
 * name, so a versioned URL never changes content and may be cached as immutable.
 */
const streamUrl = (trackId: number, version: string) =>
  `/api/tracks/${trackId}/stream?v=${encodeURIComponent(version)}`;

export const trackUrls = {
  preview: (trackId: number, version: string) => `/api/tracks/${trackId}/preview?v=${encodeURIComponent(version)}`,
  stream: streamUrl,
  /** The full stream for a guest: the grant (server/access/url-grants.ts) is the permission. */
  grantedStream: (trackId: number, version: string, grant: string) =>
    `${streamUrl(trackId, version)}&grant=${encodeURIComponent(grant)}`,
};
