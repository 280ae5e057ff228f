import { GENRES, PAGE_SIZE } from './constants';

// The addresses of the API answers a page reads first, written once. The client's queries ask for
// exactly these, and the server answers a page's first requests within the page itself
// (first-requests.ts, server/http/first-load.ts): that only works when both spell an address the
// same way, down to the order of its query parameters.

export type FundraiserSearch = { searchTerm: string; genre: string; charityEin: string; page: number };
export type ArtistSearch = { searchTerm: string; page: number };
export type LibraryTab = 'past-donations' | 'user';

const isDigits = (value: string) => /^\d+$/.test(value);

export const apiPaths = {
  site: '/api/site',
  user: '/api/user',
  featuredFundraisers: '/api/fundraisers/featured',
  featuredCharities: '/api/nonprofits/featured',
  paymentConfig: '/api/payments/config',
  /** A page path's `{projectSlugOrId}`: digits are an id, anything else a slug. */
  fundraiser: (slugOrId: string) =>
    isDigits(slugOrId) ? `/api/fundraisers/${slugOrId}` : `/api/fundraisers/slug/${encodeURIComponent(slugOrId)}`,
  /** Slugs are never purely numeric (the server prefixes such names), so digits are an id. */
  artist: (slugOrId: string) =>
    isDigits(slugOrId) ? `/api/artists/${slugOrId}` : `/api/artists/slug/${encodeURIComponent(slugOrId)}`,
  fundraiserSearch: (search: FundraiserSearch) =>
    `/api/fundraisers/search?${new URLSearchParams({
      page: String(search.page),
      pageSize: String(PAGE_SIZE),
      searchTerm: search.searchTerm,
      genre: search.genre,
      charityEin: search.charityEin,
    })}`,
  ledger: '/api/ledger',
  /** The album page's `{projectSlug}`: digits are a fundraiser id (a draft without a slug), else a slug. */
  libraryAlbum: (slugOrId: string) =>
    isDigits(slugOrId)
      ? `/api/music-library/album/${slugOrId}`
      : `/api/music-library/album/slug/${encodeURIComponent(slugOrId)}`,
  /** One page (zero-based) of Your music's lists, named as the /music/albums/{tab} routes name them. */
  libraryList: (tab: LibraryTab, page: number) =>
    `${tab === 'user' ? '/api/music-library/user' : '/api/music-library/purchases'}?${new URLSearchParams({
      page: String(page),
      pageSize: String(PAGE_SIZE),
    })}`,
  artistSearch: (search: ArtistSearch) =>
    `/api/artists/search?${new URLSearchParams({
      page: String(search.page),
      pageSize: String(PAGE_SIZE),
      searchTerm: search.searchTerm,
    })}`,
};

/**
 * Reads the zero-based `page` query parameter. Anything that is not a whole, non-negative number
 * (missing, '', 'abc', '-1', '1.5') is read as the first page, as the spec asks (part 1 section 2, Browse).
 */
export function pageFromUrl(value: string | null): number {
  if (value === null || !/^\d+$/.test(value.trim())) return 0;
  const page = Number(value.trim());
  return Number.isSafeInteger(page) ? page : 0;
}

/** The fundraiser search a browse address holds (spec part 1 section 2, Browse). */
export function fundraiserSearchFromUrl(params: URLSearchParams): FundraiserSearch {
  const genre = params.get('genre') ?? '';
  return {
    searchTerm: params.get('searchTerm')?.trim() ?? '',
    genre: (GENRES as readonly string[]).includes(genre) ? genre : '',
    charityEin: params.get('charityEin')?.trim() ?? '',
    page: pageFromUrl(params.get('page')),
  };
}

/** The artist search a browse address holds. */
export function artistSearchFromUrl(params: URLSearchParams): ArtistSearch {
  return { searchTerm: params.get('searchTerm')?.trim() ?? '', page: pageFromUrl(params.get('page')) };
}
