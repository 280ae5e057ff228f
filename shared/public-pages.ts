import type { Artist } from './answers/artists';
import type { Fundraiser } from './answers/fundraisers';

// Where the tiles of the public lists lead, and the name a fundraiser is shown by: the app draws
// them, and so does the server for a page drawn before its app starts (server/http/first-view/),
// so the two agree.

/**
 * The name to show: drafts have none until the wizard's details step (the server saves ''), and an
 * empty heading, link or page title reads as nothing at all.
 */
export function fundraiserTitle(fundraiser: Pick<Fundraiser, 'name'>): string {
  return fundraiser.name.trim() || 'Untitled fundraiser';
}

/** The public fundraiser page: by slug, or by id for a fundraiser without one (spec part 2 section 2). */
export function fundraiserPath(fundraiser: Pick<Fundraiser, 'id' | 'urlSlug'>): string {
  return `/projects/${fundraiser.urlSlug ? encodeURIComponent(fundraiser.urlSlug) : fundraiser.id}`;
}

/** Where an artist's public page is: by slug, or by id for the rare artist without one. */
export function artistPath(artist: Pick<Artist, 'id' | 'urlSlug'>): string {
  return `/artists/${artist.urlSlug ?? artist.id}`;
}

/**
 * Tiles of a list on screen at once, even on a wide desktop (four across): they load eagerly, and
 * they are the ones a list's page draws before its app starts.
 */
export const EAGER_TILES = 4;
