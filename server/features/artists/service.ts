import { imageUrl } from '../../../shared/constants';
import { reservedArtistSlugs } from '../../../shared/routes';
import { linkValues } from '../../../shared/artist-links';
import { type CreateArtistInput, isArtistPublishable, type UpdateArtistInput } from '../../../shared/schemas/artists';
import { type Artist } from '../../../shared/answers/artists';
import { FormError, filesNoLongerAvailable, forbidden, invalid, notFound } from '../../errors';
import type { Db } from '../../db/client';
import { publicCache } from '../../db/cache';
import type { Deps, PageInfo, Session, ShareCard } from '../../deps';
import { toMatchQuery } from '../../infra/full-text';
import { SerializedJson } from '../../infra/serialized-json';
import { uniqueSlug } from '../../infra/slugs';
import { savableUpload } from '../../infra/storage/upload-records';
import * as queries from './queries';
import type { ArtistRow, ArtistSummary } from './queries';

// Artist rules (spec part 1 sections 4 and 6; issue 3): owners and admins change an artist;
// drafts are visible only to them; publishing needs a name, description and profile image.
// This feature owns the artists tables; fundraisers and accounts call the functions at the end
// of this file, never its queries (docs/architecture.md).

export type { ArtistRow, ArtistSummary };

export const ARTIST_NOT_FOUND = 'Artist not found.';

/** A slug another artist has or had, or one of the site's own pages under /artists/ ('join'). */
function isSlugUnavailable(db: Db, slug: string, exceptId?: number): boolean {
  return reservedArtistSlugs.has(slug) || queries.isSlugTaken(db, slug, exceptId);
}

export function toArtist(row: ArtistRow): Artist {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    description: row.description,
    website: row.website || undefined,
    image: row.profileImageId ? imageUrl(row.profileImageId, 400, 'jpg') : undefined,
    profileImage: row.profileImageId ?? undefined,
    status: row.status,
    isPublishable: isArtistPublishable(row),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    urlSlug: row.urlSlug,
    ...linkValues(row),
  };
}

const canManage = (session: Session | null, row: ArtistRow) =>
  session !== null && (session.user.isAdmin || session.user.id === row.userId);

/** A draft is 404 to everyone but its owner and admins (DESIGN.md contract details). */
function visibleOrNotFound(session: Session | null, row: ArtistRow | undefined): ArtistRow {
  if (!row || (row.status === 'DRAFT' && !canManage(session, row))) throw notFound(ARTIST_NOT_FOUND);
  return row;
}

/** The artist if this caller may change it: others get 403 for a public artist, 404 for a draft. */
function manageable(deps: Deps, session: Session, id: number): ArtistRow {
  const row = visibleOrNotFound(session, queries.findArtistById(deps.db, id));
  if (!canManage(session, row)) throw forbidden('Only the owner of this artist or an admin can change it.');
  return row;
}

/**
 * The upload must be this user's own image, still there to be kept: anyone else's id, a made-up
 * one, and an upload that expired or was removed are FILE_NO_LONGER_AVAILABLE. Asked in the
 * transaction that saves it, so cleanup cannot take the file in between.
 */
function checkProfileImage(db: Db, session: Session, uploadId: string) {
  const use = savableUpload(db, uploadId, session.user.id, 'image');
  if (use === 'gone') throw filesNoLongerAvailable([{ field: 'profileImage', name: 'profile image' }]);
  if (use === 'wrong-kind') {
    throw new FormError([{ field: 'profileImage', message: 'Please upload the profile image again.' }]);
  }
}

export function createArtist(deps: Deps, session: Session, input: CreateArtistInput): ArtistRow {
  return deps.db.transaction((tx) => {
    checkProfileImage(tx, session, input.profileImage);
    return queries.insertArtist(tx, {
      userId: session.user.id,
      name: input.name,
      description: input.description,
      website: input.website,
      ...linkValues(input),
      profileImageId: input.profileImage,
      urlSlug: uniqueSlug(input.name, (slug) => isSlugUnavailable(tx, slug)),
    });
  });
}

/**
 * Artists' pages (server/db/cache.ts): an artist's JSON is the same whoever asks, so it is
 * kept with its row; who may see a draft is decided each time.
 */
const publicArtists = publicCache<{ row: ArtistRow; json: SerializedJson }>(500);

function cachedArtist(deps: Deps, session: Session | null, key: string, find: () => ArtistRow | undefined) {
  const kept = publicArtists.get(deps.db, key, () => {
    const row = find();
    return row && { row, json: new SerializedJson(toArtist(row)) };
  });
  visibleOrNotFound(session, kept?.row);
  return kept!.json;
}

export function getArtist(deps: Deps, session: Session | null, id: number) {
  return cachedArtist(deps, session, `id:${id}`, () => queries.findArtistById(deps.db, id));
}

/** By its slug, or by a slug it had before a rename (the answer carries the current one). */
export function getArtistBySlug(deps: Deps, session: Session | null, slug: string) {
  return cachedArtist(deps, session, `slug:${slug}`, () => findBySlugOrFormerSlug(deps.db, slug));
}

function findBySlugOrFormerSlug(db: Db, slug: string): ArtistRow | undefined {
  const current = queries.findArtistBySlug(db, slug);
  if (current) return current;
  const formerOf = queries.findArtistIdBySlugHistory(db, slug);
  return formerOf === undefined ? undefined : queries.findArtistById(db, formerOf);
}

export function listUserArtists(deps: Deps, session: Session) {
  return queries.listUserArtists(deps.db, session.user.id);
}

/**
 * Refuses a caller who may not change this artist, before the route reads the body: a refusal
 * must not depend on, nor tell anything about, what was sent (issue 14). The write checks again.
 */
export function checkMayChangeArtist(deps: Deps, session: Session, id: number): void {
  manageable(deps, session, id);
}

export function updateArtist(deps: Deps, session: Session, id: number, input: UpdateArtistInput) {
  const row = manageable(deps, session, id);
  const profileImageId = input.profileImage ?? row.profileImageId;
  if (!profileImageId) throw new FormError([{ field: 'profileImage', message: 'Profile image is required.' }]);
  return deps.db.transaction((tx) => {
    // The artist's own image stays its own; a new one must be the caller's, and still there.
    if (input.profileImage && input.profileImage !== row.profileImageId) {
      checkProfileImage(tx, session, input.profileImage);
    }
    // The slug follows the name only while the artist is a draft: once public, links must last.
    // A draft's links are shared too (an invite), so the slug it leaves keeps leading here.
    const urlSlug =
      row.status === 'DRAFT' && input.name !== row.name
        ? uniqueSlug(input.name, (slug) => isSlugUnavailable(tx, slug, row.id))
        : row.urlSlug;
    if (urlSlug !== row.urlSlug) {
      queries.rememberFormerSlug(tx, row.id, row.urlSlug);
      queries.forgetFormerSlug(tx, urlSlug);
    }
    const updated = queries.updateOwnArtist(tx, row.id, session.user.id, session.user.isAdmin, {
      name: input.name,
      description: input.description,
      website: input.website,
      ...linkValues(input),
      profileImageId,
      urlSlug,
    });
    if (!updated) throw notFound(ARTIST_NOT_FOUND);
    return updated;
  });
}

export function publishArtist(deps: Deps, session: Session, id: number) {
  const row = manageable(deps, session, id);
  if (row.status === 'PUBLISHED') return row;
  if (!isArtistPublishable(row)) {
    throw invalid('Add a name, a description and a profile image before publishing this artist.');
  }
  const updated = queries.updateOwnArtist(deps.db, row.id, session.user.id, session.user.isAdmin, {
    status: 'PUBLISHED',
    publishedAt: new Date(),
  });
  if (!updated) throw notFound(ARTIST_NOT_FOUND);
  return updated;
}

export function searchArtists(deps: Deps, params: { page: number; pageSize: number; searchTerm: string }) {
  const offset = params.page * params.pageSize;
  const match = toMatchQuery(params.searchTerm);
  // A term with no words at all ("!!!") is still a search, one that matches nothing.
  if (params.searchTerm !== '' && match === null) return { results: [], totalCount: 0 };
  const found = match
    ? queries.searchArtists(deps.db, match, params.pageSize, offset)
    : queries.recentArtists(deps.db, params.pageSize, offset);
  // The spec's envelope is results and totalCount; a capped total adds `totalCountCapped: true`.
  return {
    results: found.results.map(toArtist),
    totalCount: found.totalCount,
    ...(found.totalCountCapped && { totalCountCapped: true as const }),
  };
}

/**
 * What the server knows of /artists/{slugOrId} before the app loads: a public artist's share card
 * and its own address (a numeric id or a former slug moves there), or that there is no such artist.
 * A draft is the app's to show or hide, so nothing of it is told here.
 */
export function artistPage(deps: Deps, slugOrId: string): PageInfo {
  const row = /^\d+$/.test(slugOrId)
    ? queries.findArtistById(deps.db, Number(slugOrId))
    : findBySlugOrFormerSlug(deps.db, slugOrId);
  if (!row) return { kind: 'missing' };
  if (row.status !== 'PUBLISHED') return { kind: 'plain' };
  const path = `/artists/${encodeURIComponent(row.urlSlug)}`;
  if (row.urlSlug !== slugOrId) return { kind: 'moved', path };
  const card: ShareCard = {
    title: row.name,
    description: row.description,
    imagePath: row.profileImageId ? imageUrl(row.profileImageId, 1200, 'jpg') : undefined,
    path,
    // oEmbed answers an artist's address with their newest fundraiser's player (issue 28).
    oEmbed: true,
  };
  return { kind: 'card', card };
}

// ---------------------------------------------------------------------------------------------
// For other features (fundraisers, accounts). They take a Db, so they join the caller's transaction.

/** The artist if it is still there, whatever its status. */
export function findLiveArtist(db: Db, id: number): ArtistRow | undefined {
  return queries.findArtistById(db, id);
}

/** Artists' bylines by id, in one query (deleted ones too: a bought album still names its artist). */
export function artistSummaries(db: Db, ids: number[]): Map<number, ArtistSummary> {
  return new Map(queries.findArtistSummaries(db, [...new Set(ids)]).map((row) => [row.id, row]));
}

/** Publishes a DRAFT artist together with its fundraiser (the dialog's 'Yes, publish both!'). */
export function publishArtistWith(db: Db, id: number, at: Date) {
  queries.publishDraftArtist(db, id, at);
}

/** The artist if this caller may delete it (as manageable: 403 for a public one, 404 for a draft). */
export function deletableArtist(deps: Deps, session: Session, id: number): ArtistRow {
  return manageable(deps, session, id);
}

/**
 * One of this user's artists by its name, compared as people read names (case and surrounding
 * spaces aside): the legacy import gives a catalogue's albums by one artist one artist.
 */
export function findUserArtistByName(db: Db, userId: number, name: string): ArtistRow | undefined {
  const wanted = name.trim().toLocaleLowerCase();
  return queries.listUserArtists(db, userId).find((artist) => artist.name.trim().toLocaleLowerCase() === wanted);
}

/** An artist from a legacy catalogue, published with its fundraiser or a draft (validated by the caller). */
export function createImportedArtist(
  db: Db,
  values: { userId: number; name: string; description: string; website: string; profileImageId: string },
  publishedAt: Date | null,
): ArtistRow {
  return queries.insertArtist(db, {
    ...values,
    status: publishedAt ? 'PUBLISHED' : 'DRAFT',
    publishedAt,
    urlSlug: uniqueSlug(values.name, (slug) => isSlugUnavailable(db, slug)),
  });
}

/** Soft-deletes the artist; false when it was gone already. */
export function removeArtist(db: Db, id: number, at: Date): boolean {
  return queries.softDeleteArtist(db, id, at);
}

/** Soft-deletes all of a user's artists (their account is being deleted). */
export function removeUserArtists(db: Db, userId: number, at: Date) {
  queries.softDeleteUserArtists(db, userId, at);
}
