import { albumBackPath, albumTitle } from '../../../shared/album-links';
import { type LibraryAlbumDetail, libraryAlbumDetailSchema } from '../../../shared/answers/library';
import { apiPaths } from '../../../shared/api-paths';
import { escapeHtml } from '../../../shared/html';
import { type FirstView, firstViewStyle } from './common';
import { FIRST_VIEW } from './picked-rules';
import { PICKED_RULES } from './picked-rules.generated';

// An album in Your music, drawn before its app starts: the back link, the cover, the names and the
// actions in the app's own markup (album-page.tsx and album-cover.tsx) and rules (music.css, as
// picked-rules.ts picks them).
// tests/e2e/music-library.test.ts proves that each part is drawn where the app then draws it.

const ALBUM_STYLE = firstViewStyle(PICKED_RULES.album);

/**
 * The top of an album page in Your music (album-page.tsx's `AlbumDetail`): the back link, the
 * cover, the names and the actions. Only for an album with a cover: without one there is nothing
 * to wait for, and the app draws its placeholder.
 */
function albumView(album: LibraryAlbumDetail, search: URLSearchParams): FirstView | undefined {
  if (!album.image) return undefined;
  const title = escapeHtml(albumTitle(album));
  const artist = album.artistSlug
    ? `<a href="/artists/${escapeHtml(encodeURIComponent(album.artistSlug))}">${escapeHtml(album.artistName)}</a>`
    : escapeHtml(album.artistName);
  const actions = [
    album.fundraiserDeleted
      ? ''
      : `<a class="button button-secondary" href="/projects/${escapeHtml(encodeURIComponent(album.projectSlug))}">View fundraiser</a>`,
    album.tracksZipLink
      ? `<a class="button button-primary" href="${escapeHtml(album.tracksZipLink)}" download="">Download songs</a>`
      : '',
    // Its menu comes with the app; until then the button is drawn, as every page's are before its scripts.
    album.tracksZipLink && !album.hasV1Tracks
      ? '<button type="button" class="button button-secondary" aria-haspopup="dialog">Download as…</button>'
      : '',
  ].join('');
  const main = [
    `<div class="${FIRST_VIEW}"><div class="page stack album-page">`,
    `<p class="album-back"><a href="${escapeHtml(albumBackPath(search))}"><span aria-hidden="true">← </span>Your music</a></p>`,
    '<div class="album-hero">',
    `<span class="album-cover album-page-cover"><img src="${escapeHtml(album.image)}" alt="Album cover of ${title}" loading="eager" fetchpriority="high"></span>`,
    '<div class="album-summary">',
    `<h1>${title}</h1>`,
    `<p class="album-artist">by ${artist}</p>`,
    album.fundraiserDeleted ? '<p class="album-note">This fundraiser has ended.</p>' : '',
    `<div class="actions">${actions}</div>`,
    '</div></div></div></div>',
  ].join('');
  return { style: ALBUM_STYLE, main, picture: { href: album.image } };
}

/** An album page's first view, from the answer its HTML carries, read as the page reads it. */
export function albumFirstView(
  params: Record<string, string>,
  search: URLSearchParams,
  answers: ReadonlyMap<string, unknown>,
): FirstView | undefined {
  if (!params.projectSlug) return undefined;
  // Nothing is drawn from an answer of another shape.
  const album = libraryAlbumDetailSchema.safeParse(answers.get(apiPaths.libraryAlbum(params.projectSlug)));
  return album.success ? albumView(album.data, search) : undefined;
}
