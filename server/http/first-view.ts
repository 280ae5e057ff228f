import { albumBackPath, albumTitle } from '../../shared/album-links';
import { type LibraryAlbumDetail, libraryAlbumDetailSchema } from '../../shared/answers/library';
import { apiPaths } from '../../shared/api-paths';
import { escapeHtml } from '../../shared/html';
import type { PageName } from '../../shared/routes';

// What a page draws before its app starts, beyond the header index.html draws for every page
// (issue 24). An album in Your music is drawn by the app once its scripts have run: on a phone
// its cover, already downloaded, waited more than a second for them (Lighthouse put 58 % of the
// album's largest contentful paint in that wait). Its HTML carries instead the top of the page,
// cover and names, as the app draws it; the app replaces it when it starts, as it does the header.
//
// The markup and the rules below are the app's own (album-page.tsx and album-cover.tsx;
// styles.css and music.css): the site's stylesheets load without holding up the first paint, so
// what is drawn before them brings its rules. tests/e2e/music-library.test.ts proves that each
// part is drawn where the app then draws it, on a phone and on a desktop.

/** The parts of a page drawn before its app starts: its rules, its content, the picture it shows. */
export type FirstView = { style: string; main: string; picture: string };

/**
 * The class of what is drawn before the app starts. Its rules apply under it alone: they stay in
 * the page once the app has drawn, and must not reach the app's own elements.
 */
const FIRST_VIEW = 'first-view';

/** Rules written out to be read, sent without the spaces around their punctuation. */
const compactCss = (css: string) => css.replace(/\s*([{};:,])\s*/g, '$1').trim();

const ALBUM_STYLE = compactCss(`
      .first-view {
        --color-primary: #4c2a85;
        --color-primary-soft: #efe9fa;
        --color-surface: #ffffff;
        --radius: 12px;
        --shadow: 0 1px 2px rgb(29 21 48 / 6%), 0 4px 16px rgb(29 21 48 / 8%);
        --space-2: 8px;
        --space-3: 16px;
        --space-4: 24px;
        --space-5: 32px;
        --space-6: 48px;
        width: 100%;
        max-width: 1200px;
        margin: 0 auto;
        padding: var(--space-4) var(--space-3) var(--space-6);
        display: flex;
        flex-direction: column;
        gap: var(--space-3);
      }
      .first-view > * {
        margin-bottom: 0;
      }
      .first-view h1 {
        line-height: 1.2;
        font-size: clamp(1.75rem, 4vw, 2.5rem);
      }
      .first-view a {
        color: var(--color-primary);
      }
      .first-view img {
        max-width: 100%;
      }
      .first-view .actions {
        display: flex;
        flex-wrap: wrap;
        gap: var(--space-2);
        align-items: center;
      }
      .first-view .button {
        display: inline-flex;
        align-items: center;
        justify-content: center;
        gap: var(--space-2);
        min-height: 44px;
        padding: 10px 18px;
        border-radius: 999px;
        border: 2px solid transparent;
        font: inherit;
        font-weight: 700;
        text-decoration: none;
        cursor: pointer;
      }
      .first-view .button-primary {
        background: var(--color-primary);
        color: #fff;
      }
      .first-view .button-secondary {
        background: var(--color-surface);
        color: var(--color-primary);
        border-color: var(--color-primary);
      }
      .first-view .album-back {
        margin: 0;
      }
      .first-view .album-back a {
        font-weight: 600;
      }
      .first-view .album-hero {
        display: grid;
        gap: var(--space-4);
        margin-bottom: var(--space-3);
      }
      .first-view .album-cover {
        display: block;
        aspect-ratio: 1;
        overflow: hidden;
        background: var(--color-primary-soft);
      }
      .first-view .album-cover img {
        display: block;
        width: 100%;
        height: 100%;
        object-fit: cover;
      }
      .first-view .album-page-cover {
        width: 100%;
        max-width: 480px;
        border-radius: var(--radius);
        box-shadow: var(--shadow);
      }
      .first-view .album-summary {
        display: flex;
        flex-direction: column;
        gap: var(--space-3);
        min-width: 0;
      }
      .first-view .album-summary h1 {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .first-view .album-artist {
        margin: 0;
        font-size: 1.1rem;
      }
      .first-view .album-artist a {
        font-weight: 600;
      }
      .first-view .album-note {
        margin: 0;
        color: #5d5670;
      }
      @media (min-width: 1024px) {
        .first-view {
          padding: var(--space-5) var(--space-4) var(--space-6);
        }
        .first-view .album-hero {
          grid-template-columns: 320px minmax(0, 1fr);
          align-items: end;
          gap: var(--space-5);
        }
      }
    `);

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
    `<div class="${FIRST_VIEW} page stack album-page">`,
    `<p class="album-back"><a href="${escapeHtml(albumBackPath(search))}"><span aria-hidden="true">← </span>Your music</a></p>`,
    '<div class="album-hero">',
    `<span class="album-cover album-page-cover"><img src="${escapeHtml(album.image)}" alt="Album cover of ${title}" loading="eager" fetchpriority="high"></span>`,
    '<div class="album-summary">',
    `<h1>${title}</h1>`,
    `<p class="album-artist">by ${artist}</p>`,
    album.fundraiserDeleted ? '<p class="album-note">This fundraiser has ended.</p>' : '',
    `<div class="actions">${actions}</div>`,
    '</div></div></div>',
  ].join('');
  return { style: ALBUM_STYLE, main, picture: album.image };
}

/** What this page draws before its app starts, from the answers its HTML carries; none for most pages. */
export function firstView(
  page: PageName,
  params: Record<string, string>,
  search: URLSearchParams,
  answers: ReadonlyMap<string, unknown>,
): FirstView | undefined {
  if (page === 'album' && params.projectSlug) {
    // The answer the page was given, read as the page reads it: nothing drawn from a shape it is not.
    const album = libraryAlbumDetailSchema.safeParse(answers.get(apiPaths.libraryAlbum(params.projectSlug)));
    return album.success ? albumView(album.data, search) : undefined;
  }
  return undefined;
}
