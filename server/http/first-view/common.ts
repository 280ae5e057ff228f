import { imageSrcSet, imageUrl } from '../../../shared/constants';
import type { Picture } from '../../../shared/first-requests';
import { escapeHtml } from '../../../shared/html';
import { iconPaths } from '../../../shared/icon-paths';
import { FIRST_VIEW } from './picked-rules';
import { PICKED_RULES } from './picked-rules.generated';

// What every page drawn before its app starts shares (first-view.ts says why pages are drawn so):
// the site's rules those pages use, and the square picture the app draws.

/** The parts of a page drawn before its app starts: its rules, its content, the picture it shows first. */
export type FirstView = { style: string; main: string; picture: Picture | undefined };

/**
 * What the first view needs that the app's stylesheets do not say. The block is a screen high at
 * least, as the app's <main> is (with the footer below it): the page scrolls from its first paint,
 * so no scroll bar comes with the app to narrow it.
 */
const OWN_RULES = `.${FIRST_VIEW}{min-height:100vh}`;

/**
 * A page's rules: the common ones the client's stylesheets give (picked-rules.ts), the first
 * view's own, then the page's, as the app's page files follow styles.css.
 */
export const firstViewStyle = (pageRules: string) => PICKED_RULES.common + OWN_RULES + pageRules;

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
