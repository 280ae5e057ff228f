import { canStream } from '../../access/can-stream';
import { grantedPurchase, requireStandingPurchase } from '../../access/url-grants';
import { forbidden, notFound, unauthenticated } from '../../errors';
import type { CachePolicy, Deps, Session } from '../../deps';
import { renditionVersion } from '../../infra/storage/media';
import { findTrackMedia, type TrackMedia } from './queries';

// Track audio (DESIGN.md sections 3 and 4; issue 5, Delivery): the public 30-second preview of
// each track and the full stream, which only canStream may open. Rendition names are never
// reused, so a URL whose `?v=` names the current rendition can be cached for good.

export const mediaMessages = {
  trackNotFound: 'Track not found.',
  notReady: 'This track is not available yet.',
  logIn: 'Please log in to listen to the full track.',
  noAccess: "Only the fundraiser's owner, its donors and admins can listen to the full track.",
  unknownQuality: 'Unknown quality: ask for "standard" or "low".',
};

/** A rendition on disk and how it may be cached. */
export type TrackAudio = CachePolicy & { path: string; version: string };

const mayManage = (session: Session | null, track: TrackMedia) =>
  session !== null && (session.user.isAdmin || session.user.id === track.ownerId);

function readyRendition(track: TrackMedia, file: string | null): string {
  if (track.status !== 'ready' || !file) throw notFound(mediaMessages.notReady);
  return file;
}

const isDeleted = (track: TrackMedia) => track.fundraiserDeletedAt !== null;

/**
 * GET /api/tracks/{id}/preview: public for a published fundraiser; a draft's for those who see it.
 * A deleted fundraiser has no public page left to preview: 404, whoever asks.
 */
export function trackPreview(deps: Deps, session: Session | null, trackId: number, requested?: string): TrackAudio {
  const track = findTrackMedia(deps.db, trackId);
  // A draft is 404 to everyone but its owner and admins (DESIGN.md contract details).
  if (!track || isDeleted(track) || (track.fundraiserStatus === 'DRAFT' && !mayManage(session, track))) {
    throw notFound(mediaMessages.trackNotFound);
  }
  const file = readyRendition(track, track.previewFile);
  const version = renditionVersion(file);
  return {
    path: deps.media.previewFile(file),
    version,
    // A draft's audio is for its owner and admins only: no cache may keep a copy.
    cache: track.fundraiserStatus === 'DRAFT' ? 'none' : 'public',
    immutable: requested === version,
  };
}

/**
 * GET /api/tracks/{id}/stream: the full track, for whoever canStream lets in (owner, admins, buyers;
 * once the fundraiser is deleted, buyers and admins only). A player asks for range after range of
 * the same track: the answer is remembered for the session a short while (deps.streamGrants, which
 * says what ends one early), so those requests skip the lookups. `remembered` says it was.
 * A URL carrying a grant (`?grant=`, server/access/url-grants.ts) is decided by its grant alone,
 * whoever asks: it is how a guest hears what they bought.
 */
export function trackStream(
  deps: Deps,
  session: Session | null,
  trackId: number,
  requested?: string,
  grant?: string,
): TrackAudio & { remembered: boolean } {
  if (grant !== undefined) return { ...grantedStream(deps, trackId, grant, requested), remembered: false };
  const granted = session ? deps.streamGrants.get(session.idHash, session.user, trackId) : undefined;
  // A URL naming another rendition than the remembered one was made since it changed: look again.
  const remembered =
    granted && (requested === undefined || renditionVersion(granted) === requested) ? granted : undefined;
  const file = remembered ?? streamableRendition(deps, session, trackId);
  // Only a caller with a session is ever let in (canStream), so only they reach here unremembered.
  if (!remembered && session) deps.streamGrants.put(session.idHash, session.user, trackId, file);
  const version = renditionVersion(file);
  return {
    path: deps.media.streamFile(file),
    version,
    // Bought music is the caller's own: their browser may keep it, shared caches may not.
    cache: 'private',
    immutable: requested === version,
    remembered: remembered !== undefined,
  };
}

/**
 * A granted stream: the signature is checked before anything is read (a forged grant costs no
 * query), then the purchase, on every request, so a refund ends it at once (nothing is remembered).
 */
function grantedStream(deps: Deps, trackId: number, grant: string, requested?: string): TrackAudio {
  const track = grantedTrack(deps, trackId, grant);
  const file = readyRendition(track, track.streamFile);
  const version = renditionVersion(file);
  // As any bought stream: the buyer's browser may keep it, shared caches may not.
  return { path: deps.media.streamFile(file), version, cache: 'private', immutable: requested === version };
}

/** The track a URL's grant opens, while its purchase stands. */
function grantedTrack(deps: Deps, trackId: number, grant: string): TrackMedia {
  const purchaseId = grantedPurchase(deps.urlGrants, grant, { kind: 'track', trackId });
  const track = findTrackMedia(deps.db, trackId);
  if (!track) throw notFound(mediaMessages.trackNotFound);
  requireStandingPurchase(deps.db, purchaseId, track.fundraiserId);
  return track;
}

/**
 * A track whose full music the caller may have, by the URL's grant or by canStream, as the stream
 * decides (401, 403 or 404 otherwise): for its downloads and its Data saver file (issue 27).
 */
export function fullTrack(deps: Deps, session: Session | null, trackId: number, grant?: string): TrackMedia {
  if (grant !== undefined) return grantedTrack(deps, trackId, grant);
  const track = findTrackMedia(deps.db, trackId);
  if (!track) throw notFound(mediaMessages.trackNotFound);
  requireStreamable(deps, session, track);
  return track;
}

/** The rendition a remembered grant named is gone from disk (replaced): the next ask looks again. */
export function forgetStreamGrant(deps: Deps, session: Session | null, trackId: number) {
  if (session) deps.streamGrants.forget(session.idHash, trackId);
}

/** canStream's answer for the track's fundraiser, then the track's ready rendition. */
function streamableRendition(deps: Deps, session: Session | null, trackId: number): string {
  const track = findTrackMedia(deps.db, trackId);
  if (!track) throw notFound(mediaMessages.trackNotFound);
  requireStreamable(deps, session, track);
  return readyRendition(track, track.streamFile);
}

/** canStream's answer for the track's fundraiser: 401, 403 or 404 unless the caller may hear it. */
function requireStreamable(deps: Deps, session: Session | null, track: TrackMedia) {
  const user = session?.user ?? null;
  const album = { fundraiserId: track.fundraiserId, ownerId: track.ownerId, deleted: isDeleted(track) };
  if (!canStream(deps.db, user, album)) {
    // A draft stays hidden from those who may not see it, as everywhere else; a deleted
    // fundraiser is gone for everyone who did not buy it.
    if (track.fundraiserStatus === 'DRAFT' || album.deleted) throw notFound(mediaMessages.trackNotFound);
    if (!user) throw unauthenticated(mediaMessages.logIn);
    throw forbidden(mediaMessages.noAccess);
  }
}

/** The fundraiser a track belongs to (tracks never move): for counting its plays (issue 29). */
export function fundraiserOfTrack(deps: Deps, trackId: number): number | undefined {
  return findTrackMedia(deps.db, trackId)?.fundraiserId;
}
