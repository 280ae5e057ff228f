import { imageUrl } from '../../../shared/constants';
import {
  type Artist,
  type CreateArtistInput,
  isArtistPublishable,
  type UpdateArtistInput,
} from '../../../shared/schemas/artists';
import { FormError, forbidden, invalid, notFound } from '../../errors';
import type { ShareCard } from '../../http/client-app';
import type { Deps, Session } from '../../http/context';
import { toMatchQuery } from '../../infra/full-text';
import { uniqueSlug } from '../../infra/slugs';
import { findOwnUpload } from '../../infra/storage/upload-records';
import * as queries from './queries';
import type { ArtistRow } from './queries';

// Artist rules (spec part 1 sections 4 and 6; issue 3): owners and admins change an artist;
// drafts are visible only to them; publishing needs a name, description and profile image.

const NOT_FOUND = 'Artist not found.';

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
  };
}

const canManage = (session: Session | null, row: ArtistRow) =>
  session !== null && (session.user.isAdmin || session.user.id === row.userId);

/** A draft is 404 to everyone but its owner and admins (DESIGN.md contract details). */
function visibleOrNotFound(session: Session | null, row: ArtistRow | undefined): ArtistRow {
  if (!row || (row.status === 'DRAFT' && !canManage(session, row))) throw notFound(NOT_FOUND);
  return row;
}

/** The artist if this caller may change it: others get 403 for a public artist, 404 for a draft. */
function manageable(deps: Deps, session: Session, id: number): ArtistRow {
  const row = visibleOrNotFound(session, queries.findArtistById(deps.db, id));
  if (!canManage(session, row)) throw forbidden('Only the owner of this artist or an admin can change it.');
  return row;
}

/** The upload must be this user's own image: an id from anyone else's upload is refused. */
function checkProfileImage(deps: Deps, session: Session, uploadId: string) {
  if (!findOwnUpload(deps.db, uploadId, session.user.id, 'image')) {
    throw new FormError([{ field: 'profileImage', message: 'Please upload the profile image again.' }]);
  }
}

export function createArtist(deps: Deps, session: Session, input: CreateArtistInput): ArtistRow {
  checkProfileImage(deps, session, input.profileImage);
  return deps.db.transaction((tx) =>
    queries.insertArtist(tx, {
      userId: session.user.id,
      name: input.name,
      description: input.description,
      website: input.website,
      profileImageId: input.profileImage,
      urlSlug: uniqueSlug(input.name, (slug) => queries.isSlugTaken(tx, slug)),
    }),
  );
}

export function getArtist(deps: Deps, session: Session | null, id: number) {
  return visibleOrNotFound(session, queries.findArtistById(deps.db, id));
}

export function getArtistBySlug(deps: Deps, session: Session | null, slug: string) {
  return visibleOrNotFound(session, queries.findArtistBySlug(deps.db, slug));
}

export function listUserArtists(deps: Deps, session: Session) {
  return queries.listUserArtists(deps.db, session.user.id);
}

export function updateArtist(deps: Deps, session: Session, id: number, input: UpdateArtistInput) {
  const row = manageable(deps, session, id);
  if (input.profileImage && input.profileImage !== row.profileImageId)
    checkProfileImage(deps, session, input.profileImage);
  const profileImageId = input.profileImage ?? row.profileImageId;
  if (!profileImageId) throw new FormError([{ field: 'profileImage', message: 'Profile image is required.' }]);
  return deps.db.transaction((tx) => {
    // The slug follows the name only while the artist is a draft: once public, links must last.
    const urlSlug =
      row.status === 'DRAFT' && input.name !== row.name
        ? uniqueSlug(input.name, (slug) => queries.isSlugTaken(tx, slug, row.id))
        : row.urlSlug;
    const updated = queries.updateOwnArtist(tx, row.id, session.user.id, session.user.isAdmin, {
      name: input.name,
      description: input.description,
      website: input.website,
      profileImageId,
      urlSlug,
    });
    if (!updated) throw notFound(NOT_FOUND);
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
  if (!updated) throw notFound(NOT_FOUND);
  return updated;
}

/**
 * Soft delete, with the artist's fundraisers in the same transaction (spec part 1 section 7): the
 * records stay for the donations already made through them.
 */
export function deleteArtist(deps: Deps, session: Session, id: number) {
  const row = manageable(deps, session, id);
  deps.db.transaction((tx) => {
    const at = new Date();
    const deleted = queries.updateOwnArtist(tx, row.id, session.user.id, session.user.isAdmin, { deletedAt: at });
    if (!deleted) throw notFound(NOT_FOUND);
    queries.deleteArtistFundraisers(tx, row.id, at);
  });
}

export function searchArtists(deps: Deps, params: { page: number; pageSize: number; searchTerm: string }) {
  const offset = params.page * params.pageSize;
  const match = toMatchQuery(params.searchTerm);
  // A term with no words at all ("!!!") is still a search, one that matches nothing.
  if (params.searchTerm !== '' && match === null) return { results: [], totalCount: 0 };
  const found = match
    ? queries.searchArtists(deps.db, match, params.pageSize, offset)
    : queries.recentArtists(deps.db, params.pageSize, offset);
  return { results: found.results.map(toArtist), totalCount: found.totalCount };
}

/** The link preview of /artists/{slugOrId}: public artists only. */
export function artistShareCard(deps: Deps, slugOrId: string): ShareCard | null {
  const row = /^\d+$/.test(slugOrId)
    ? queries.findArtistById(deps.db, Number(slugOrId))
    : queries.findArtistBySlug(deps.db, slugOrId);
  if (!row || row.status !== 'PUBLISHED') return null;
  return {
    title: row.name,
    description: row.description,
    imagePath: row.profileImageId ? imageUrl(row.profileImageId, 1200, 'jpg') : undefined,
    path: `/artists/${row.urlSlug}`,
  };
}
