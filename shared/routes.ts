// The app's pages (spec part 1 section 2, part 2 section 2), written once: the client's router
// (client/app/router.tsx) takes its paths from here, and the server answers any other address with
// 404 and the app's "Page not found" (issue 9), so a mistyped link is a real 404 for browsers,
// crawlers and link checkers. Patterns use react-router's syntax: ':name' is one segment, ':name?'
// an optional one, and a final '*' the rest of the path. The two '*' pages are the spec's own
// wildcards (part 2 section 2): "/admin and any sub-path show tabs ... selected by the last path
// segment", and the wizard at /fundraisers/new sends an unknown step to the first open one.

export const pagePaths = {
  home: '/',
  browse: '/browse/:tab?',
  howItWorks: '/howitworks',
  about: '/about',
  contact: '/contact',
  terms: '/terms',
  support: '/support',
  // The artist sign-up landing page, at both of its addresses (DESIGN.md, corrections).
  forArtists: '/for-artists',
  artistsJoin: '/artists/join',
  ledger: '/where-the-money-goes',
  supportDonate: '/support/donate',
  supportDonateSuccess: '/support/donate/success',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password/:resetToken',
  account: '/user',
  verifyEmail: '/user/verify-email',
  giving: '/account/giving',
  yourArtists: '/artists/user',
  editArtist: '/artists/user/:artistId/edit',
  newArtist: '/artists/new',
  artist: '/artists/:artistSlugOrId',
  music: '/music',
  musicAlbums: '/music/albums',
  musicAlbumList: '/music/albums/:tab',
  album: '/music/album/:projectSlug',
  yourFundraisers: '/fundraisers/user',
  manageFundraiser: '/fundraisers/user/:projectId',
  editFundraiser: '/fundraisers/user/:projectId/edit',
  /** Issue 29: the owner's dashboard of a fundraiser (DESIGN.md wave 3, insight). */
  fundraiserInsight: '/fundraisers/user/:projectId/insight',
  fundraiserWizard: '/fundraisers/new/*',
  fundraiser: '/projects/:projectSlugOrId',
  donate: '/projects/:projectSlugOrId/donate',
  donateSuccess: '/projects/:projectSlugOrId/donate/success',
  purchase: '/purchases/:token',
  admin: '/admin/*',
} as const;

export type PageName = keyof typeof pagePaths;

/**
 * The fixed segments after '/artists/' ('new', 'user', 'join'): an artist whose slug was one of
 * them could never be reached at its address, so no artist is given one.
 */
export const reservedArtistSlugs: ReadonlySet<string> = new Set(
  Object.values(pagePaths).flatMap((pattern) => {
    const segment = /^\/artists\/([^/:*]+)/.exec(pattern)?.[1];
    return segment ? [segment] : [];
  }),
);

/**
 * The artist landing page's title and its link preview, the same in the page's HTML (the server's
 * share card) as in the tab once the app runs.
 */
export const forArtistsCard = {
  title: 'For artists',
  description:
    'Release your album as a fundraiser for a US charity you choose. Fans donate to get your music, the charity gets the money, and we take no percentage.',
} as const;

/** A path's segments, '/a/b/' → ['a', 'b'] (an empty path has none). */
function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Whether `pathname` is an address of `pattern`; its parameters when it is. */
export function matchPagePath(pattern: string, pathname: string): Record<string, string> | null {
  return matchSegments(segments(pattern), segments(pathname));
}

function matchSegments(want: string[], have: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part === '*') return params;
    const value = have[i];
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      if (value === undefined) {
        if (optional) continue;
        return null;
      }
      params[part.slice(1, optional ? -1 : undefined)] = value;
      continue;
    }
    if (value !== part) return null;
  }
  return have.length <= want.length ? params : null;
}

/**
 * Every page's pattern in segments, and how many of them are fixed, worked out once: the server
 * asks which page an address is on every request that is not for a file (issue 24).
 */
const pagePatterns = (Object.entries(pagePaths) as [PageName, string][]).map(([name, pattern]) => {
  const want = segments(pattern);
  return { name, want, fixed: want.filter((part) => !part.startsWith(':') && part !== '*').length };
});

/**
 * The page an address shows, as the router would choose it: a fixed segment wins over a
 * parameter ('/artists/new' is not an artist called "new"). Null for an address of no page.
 */
export function findPage(pathname: string): { name: PageName; params: Record<string, string> } | null {
  const have = segments(pathname);
  let best: { name: PageName; params: Record<string, string>; fixed: number } | null = null;
  for (const { name, want, fixed } of pagePatterns) {
    const params = matchSegments(want, have);
    if (params && (!best || fixed > best.fixed)) best = { name, params, fixed };
  }
  return best && { name: best.name, params: best.params };
}
