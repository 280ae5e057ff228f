import { apiPaths, artistSearchFromUrl, fundraiserSearchFromUrl, type LibraryTab, pageFromUrl } from './api-paths';
import { pictureSizes } from './constants';
import type { PageName } from './routes';

/**
 * One answer a page reads as soon as it is drawn: the API address the client's query asks (the
 * key the page's answers are stored under) and what it is, for the server to answer it by
 * calling the same service the route calls (server/first-answers.ts). `query` is the address's
 * own query, which the server reads with the route's schema.
 */
export type FirstRequest = { path: string } & (
  | { answer: 'site' | 'user' | 'featuredFundraisers' | 'featuredCharities' | 'ledger' | 'paymentConfig' }
  | { answer: 'fundraiser' | 'artist' | 'libraryAlbum'; slugOrId: string }
  | { answer: 'fundraiserSearch' | 'artistSearch'; query: Record<string, string> }
  | { answer: 'libraryList'; tab: LibraryTab; query: Record<string, string> }
);

const queryOf = (path: string) => Object.fromEntries(new URLSearchParams(path.slice(path.indexOf('?') + 1)));

/**
 * The API answers a page reads as soon as it is drawn, from its address alone (issue 13). The
 * server puts them into the page (server/http/first-load.ts), so a visitor's first page shows its
 * content without a round trip per answer. Pages not listed simply ask as usual.
 */
export function firstRequests(
  page: PageName,
  params: Record<string, string>,
  search: URLSearchParams,
  signedIn: boolean,
): FirstRequest[] {
  const requests: FirstRequest[] = [{ path: apiPaths.site, answer: 'site' }];
  if (signedIn) requests.push({ path: apiPaths.user, answer: 'user' });
  const searching = (answer: 'fundraiserSearch' | 'artistSearch', path: string) =>
    requests.push({ path, answer, query: queryOf(path) });
  switch (page) {
    case 'home':
      requests.push(
        { path: apiPaths.featuredFundraisers, answer: 'featuredFundraisers' },
        { path: apiPaths.featuredCharities, answer: 'featuredCharities' },
      );
      break;
    case 'browse':
      if (params.tab === 'artists') searching('artistSearch', apiPaths.artistSearch(artistSearchFromUrl(search)));
      else searching('fundraiserSearch', apiPaths.fundraiserSearch(fundraiserSearchFromUrl(search)));
      break;
    case 'fundraiser':
    case 'donate':
      if (params.projectSlugOrId) {
        const slugOrId = params.projectSlugOrId;
        requests.push({ path: apiPaths.fundraiser(slugOrId), answer: 'fundraiser', slugOrId });
      }
      // The donation form says at once whether the card is a test one: without the answer, that
      // line arrived later and moved the form down (issue 24).
      if (page === 'donate') requests.push({ path: apiPaths.paymentConfig, answer: 'paymentConfig' });
      break;
    case 'supportDonate':
      requests.push({ path: apiPaths.paymentConfig, answer: 'paymentConfig' });
      break;
    case 'artist':
      if (params.artistSlugOrId) {
        const slugOrId = params.artistSlugOrId;
        requests.push({ path: apiPaths.artist(slugOrId), answer: 'artist', slugOrId });
      }
      break;
    case 'ledger':
      requests.push({ path: apiPaths.ledger, answer: 'ledger' });
      break;
    case 'album':
      if (signedIn && params.projectSlug) {
        const slugOrId = params.projectSlug;
        requests.push({ path: apiPaths.libraryAlbum(slugOrId), answer: 'libraryAlbum', slugOrId });
      }
      break;
    case 'musicAlbumList':
      if (signedIn && (params.tab === 'past-donations' || params.tab === 'user')) {
        const path = apiPaths.libraryList(params.tab, pageFromUrl(search.get('page')));
        requests.push({ path, answer: 'libraryList', tab: params.tab, query: queryOf(path) });
      }
      break;
  }
  return requests;
}

/** An uploaded picture in the renditions the page chooses from, or one file (Your music's covers). */
export type Picture = { uploadId: string; sizes: string } | { href: string };

function pictureOf(value: unknown, key: 'albumCover' | 'profileImage', sizes: string): Picture | undefined {
  const uploadId = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof uploadId === 'string' && uploadId !== '' ? { uploadId, sizes } : undefined;
}

function firstResult(value: unknown): unknown {
  const results = Array.isArray(value) ? value : (value as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? results[0] : undefined;
}

/**
 * The picture a page draws largest (what its largest contentful paint waits for), from the answers
 * it was given, with the `sizes` the page draws it at; the server preloads it with the page.
 */
export function leadPicture(
  page: PageName,
  params: Record<string, string>,
  search: URLSearchParams,
  answers: ReadonlyMap<string, unknown>,
): Picture | undefined {
  switch (page) {
    case 'home':
      return pictureOf(firstResult(answers.get(apiPaths.featuredFundraisers)), 'albumCover', pictureSizes.featuredTile);
    case 'browse':
      return params.tab === 'artists'
        ? pictureOf(
            firstResult(answers.get(apiPaths.artistSearch(artistSearchFromUrl(search)))),
            'profileImage',
            pictureSizes.gridTile,
          )
        : pictureOf(
            firstResult(answers.get(apiPaths.fundraiserSearch(fundraiserSearchFromUrl(search)))),
            'albumCover',
            pictureSizes.fundraiserTile,
          );
    case 'fundraiser':
      return params.projectSlugOrId
        ? pictureOf(
            answers.get(apiPaths.fundraiser(params.projectSlugOrId)),
            'albumCover',
            pictureSizes.fundraiserCover,
          )
        : undefined;
    case 'artist':
      return params.artistSlugOrId
        ? pictureOf(answers.get(apiPaths.artist(params.artistSlugOrId)), 'profileImage', pictureSizes.artistPicture)
        : undefined;
    case 'album': {
      // Your music's answers name the cover's file itself (one size, drawn as it is).
      const album = params.projectSlug ? answers.get(apiPaths.libraryAlbum(params.projectSlug)) : undefined;
      const image = typeof album === 'object' && album !== null ? (album as { image?: unknown }).image : undefined;
      return typeof image === 'string' && image.startsWith('/') ? { href: image } : undefined;
    }
    default:
      return undefined;
  }
}
