import type { PageName } from '../../../shared/routes';
import { albumFirstView } from './album';
import { browseFirstView } from './browse';
import type { FirstView } from './common';

// What a page draws before its app starts, beyond the header index.html draws for every page
// (issue 24). A page is drawn by the app once its scripts have run: on a phone its leading picture,
// already downloaded, waited more than a second for them (Lighthouse put 58 % of an album's largest
// contentful paint in that wait, 70 % of the browse page's). The HTML of those pages carries
// instead the top of the page, as the app draws it; the app replaces it when it starts, as it does
// the header (client/main.tsx: React's root takes the place of what it holds in one commit).
//
// The markup and the rules are the app's own: the site's stylesheets load without holding up the
// first paint, so what is drawn before them brings its rules, scoped to its own block and picked
// from those stylesheets (picked-rules.ts). One file per page, since each copies its page's markup;
// what they share is in common.ts. Each page's e2e test proves that each part is drawn where the
// app then draws it, on a phone and on a desktop.

/** What this page draws before its app starts, from the answers its HTML carries; none for most pages. */
export function firstView(
  page: PageName,
  params: Record<string, string>,
  search: URLSearchParams,
  answers: ReadonlyMap<string, unknown>,
): FirstView | undefined {
  switch (page) {
    case 'album':
      return albumFirstView(params, search, answers);
    case 'browse':
      return browseFirstView(params, search, answers);
    default:
      return undefined;
  }
}
