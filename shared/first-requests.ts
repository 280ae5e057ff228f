import { apiPaths, artistSearchFromUrl, fundraiserSearchFromUrl, pageFromUrl } from './api-paths';
import { pictureSizes } from './constants';
import type { PageName } from './routes';

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
): string[] {
  const paths: string[] = [apiPaths.site];
  if (signedIn) paths.push(apiPaths.user);
  switch (page) {
    case 'home':
      paths.push(apiPaths.featuredFundraisers, apiPaths.featuredCharities);
      break;
    case 'browse':
      paths.push(
        params.tab === 'artists'
          ? apiPaths.artistSearch(artistSearchFromUrl(search))
          : apiPaths.fundraiserSearch(fundraiserSearchFromUrl(search)),
      );
      break;
    case 'fundraiser':
    case 'donate':
      if (params.projectSlugOrId) paths.push(apiPaths.fundraiser(params.projectSlugOrId));
      break;
    case 'artist':
      if (params.artistSlugOrId) paths.push(apiPaths.artist(params.artistSlugOrId));
      break;
    case 'ledger':
      paths.push(apiPaths.ledger);
      break;
    case 'album':
      if (signedIn && params.projectSlug) paths.push(apiPaths.libraryAlbum(params.projectSlug));
      break;
    case 'musicAlbumList':
      if (signedIn && (params.tab === 'past-donations' || params.tab === 'user')) {
        paths.push(apiPaths.libraryList(params.tab, pageFromUrl(search.get('page'))));
      }
      break;
  }
  return paths;
}

type Picture = { uploadId: string; sizes: string };

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
            pictureSizes.gridTile,
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
    default:
      return undefined;
  }
}
