import { imageSrcSet, imageUrl } from '../../../shared/constants';
import type { Picture } from '../../../shared/first-requests';
import { escapeHtml } from '../../../shared/html';
import { iconPaths } from '../../../shared/icon-paths';

// What every page drawn before its app starts shares (first-view.ts says why pages are drawn so):
// the wrapper's class, the site's rules those pages use, and the square picture the app draws.

/** The parts of a page drawn before its app starts: its rules, its content, the picture it shows first. */
export type FirstView = { style: string; main: string; picture: Picture | undefined };

/**
 * The class of what is drawn before the app starts. Its rules apply under it alone: they stay in
 * the page once the app has drawn, and must not reach the app's own elements.
 */
export const FIRST_VIEW = 'first-view';

/** Rules written out to be read, sent without the spaces around their punctuation. */
const compactCss = (css: string) => css.replace(/\s*([{};:,])\s*/g, '$1').trim();

/**
 * styles.css's tokens and the rules of the parts every page drawn first uses: the page's box,
 * headings, paragraphs, links, buttons, and the square frame of a picture (uploaded-picture.css;
 * music.css's album cover is the same frame). Each page's own rules follow them, as the app's page
 * files follow styles.css.
 */
const COMMON_RULES = `
      .first-view {
        --color-primary: #4c2a85;
        --color-primary-soft: #efe9fa;
        --color-accent: #ff7a59;
        --color-accent-dark: #c2411f;
        --color-text: #1d1530;
        --color-muted: #5d5670;
        --color-surface: #ffffff;
        --color-border: #ddd6ea;
        --radius: 12px;
        --radius-small: 8px;
        --shadow: 0 1px 2px rgb(29 21 48 / 6%), 0 4px 16px rgb(29 21 48 / 8%);
        --space-1: 4px;
        --space-2: 8px;
        --space-3: 16px;
        --space-4: 24px;
        --space-5: 32px;
        --space-6: 48px;
        /* A screen high at least, as the app's <main> is (with the footer below it): the page scrolls
           from its first paint, so no scroll bar comes with the app to narrow it. */
        min-height: 100vh;
      }
      .first-view .page {
        width: 100%;
        max-width: 1200px;
        margin: 0 auto;
        padding: var(--space-4) var(--space-3) var(--space-6);
      }
      .first-view .stack {
        display: flex;
        flex-direction: column;
        gap: var(--space-3);
      }
      .first-view .stack > * {
        margin-bottom: 0;
      }
      .first-view h1,
      .first-view h2,
      .first-view h3 {
        line-height: 1.2;
        margin: 0 0 var(--space-3);
      }
      .first-view h1 {
        font-size: clamp(1.75rem, 4vw, 2.5rem);
      }
      .first-view h2 {
        font-size: 1.35rem;
      }
      .first-view h3 {
        font-size: 1.1rem;
      }
      .first-view p {
        margin: 0 0 var(--space-3);
      }
      .first-view a {
        color: var(--color-primary);
      }
      .first-view img {
        max-width: 100%;
      }
      .first-view .visually-hidden {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip: rect(0 0 0 0);
        white-space: nowrap;
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
      .first-view .uploaded-picture,
      .first-view .album-cover {
        display: block;
        aspect-ratio: 1;
        overflow: hidden;
        background: var(--color-primary-soft);
      }
      .first-view .uploaded-picture img,
      .first-view .album-cover img {
        display: block;
        width: 100%;
        height: 100%;
        object-fit: cover;
      }
      .first-view .uploaded-picture-placeholder {
        display: flex;
        align-items: center;
        justify-content: center;
        color: var(--color-primary);
      }
      @media (min-width: 1024px) {
        .first-view .page {
          padding: var(--space-5) var(--space-4) var(--space-6);
        }
      }
`;

/** A page's rules: the common ones, then its own. */
export const firstViewStyle = (pageRules: string) => compactCss(COMMON_RULES + pageRules);

type UploadedPictureOptions = {
  /** The upload the renditions derive from; without one, the app's placeholder. */
  uploadId: string | undefined;
  /** How wide it is drawn: the same `sizes` as the app's, so the same rendition is fetched. */
  sizes: string;
  eager: boolean;
  priority: boolean;
};

/**
 * An uploaded picture as the app's UploadedPicture draws it (client/ui/uploaded-picture.tsx): WebP
 * with a JPEG fallback, from the same renditions, so the browser fetches the file the page's
 * preload named and the app's own picture then finds it ready. Without alternative text: the
 * pictures drawn first decorate a name printed beside them.
 */
export function uploadedPicture({ uploadId, sizes, eager, priority }: UploadedPictureOptions): string {
  if (!uploadId) {
    return `<span class="uploaded-picture uploaded-picture-placeholder" data-placeholder="music" aria-hidden="true"><svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false"><path fill="currentColor" d="${iconPaths.music}"></path></svg></span>`;
  }
  // Escaped like any text, though upload ids and sizes are the server's own.
  const [webp, jpg, src, at] = [
    imageSrcSet(uploadId, 'webp'),
    imageSrcSet(uploadId, 'jpg'),
    imageUrl(uploadId, 400, 'jpg'),
    sizes,
  ].map(escapeHtml);
  return [
    '<picture class="uploaded-picture">',
    `<source type="image/webp" srcset="${webp}" sizes="${at}">`,
    `<img src="${src}" srcset="${jpg}" sizes="${at}" alt=""`,
    ` loading="${eager || priority ? 'eager' : 'lazy'}"${priority ? ' fetchpriority="high"' : ''} decoding="async">`,
    '</picture>',
  ].join('');
}
