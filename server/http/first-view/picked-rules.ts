// Which of the client's rules each page drawn before its app starts brings with it (first-view.ts
// says why). They are the app's own rules, picked from its stylesheets by scripts/first-view-css.ts
// into picked-rules.generated.ts, so the stylesheets stay their one source: a change to a tile's
// rules changes what the server sends. tests/unit/first-view-css.test.ts fails when the generated
// rules are stale, or when a selector named here is no longer in its stylesheet.

/**
 * The class of what is drawn before the app starts. Its rules apply under it alone: they stay in
 * the page once the app has drawn, and must not reach the app's own elements.
 */
export const FIRST_VIEW = 'first-view';

/** Rules of one of the client's stylesheets, in that stylesheet's order. */
export type RulePick = {
  /** The stylesheet, from the repository's root. */
  file: string;
  /**
   * The rules whose selector list names one of these, whole and inside their @media; every rule
   * of the file when absent.
   */
  selectors?: readonly string[];
  /** The selectors name a class the first view's block itself carries, not an element inside it. */
  onBlock?: boolean;
};

/**
 * styles.css's tokens and the rules of the parts every page drawn first uses: the page's box,
 * headings, paragraphs, links and buttons. Each page's own rules follow them, as the app's page
 * files follow styles.css.
 */
const common: readonly RulePick[] = [
  {
    file: 'client/styles.css',
    selectors: [
      ':root',
      'h1',
      'h2',
      'h3',
      'p',
      'a',
      'img',
      '.visually-hidden',
      '.page',
      '.stack',
      '.stack > *',
      '.actions',
      '.button',
      '.button-primary',
      '.button-secondary',
    ],
  },
];

/**
 * The browse page: its banner, tabs and search form (styles.css, browse.css) and the tiles of its
 * list. A stylesheet all of whose rules are for what the first view draws comes whole, so what it
 * gains reaches the first view too; tile.css and artist-tile.css also hold the owner's controls.
 */
const browse: readonly RulePick[] = [
  {
    file: 'client/styles.css',
    selectors: [
      '.desktop-only',
      '.section',
      '.grid',
      '.grid > *',
      '.card',
      '.form',
      '.form > p',
      '.form-row',
      '.field',
      '.field label',
      '.field input',
      '.field select',
      '.tabs',
      '.tab',
      ".tab[aria-current='page']",
    ],
  },
  {
    file: 'client/features/browse/browse.css',
    selectors: ['.browse-banner', '.browse-banner-text', '.browse-search .form-row'],
  },
  { file: 'client/ui/uploaded-picture.css' },
  {
    file: 'client/ui/tile.css',
    selectors: [
      '.fundraiser-tiles',
      '.card.tile',
      '.tile:hover',
      '.tile-media',
      '.tile-hover',
      '.tile:hover .tile-hover',
      '.tile-body',
      '.tile-name',
      '.tile-link',
      '.tile-link::after',
      '.tile:hover .tile-link',
    ],
  },
  { file: 'client/ui/fundraiser-tile.css' },
  { file: 'client/ui/artist-tile.css', selectors: ['.artist-tile .tile-body', '.artist-tile-description'] },
  // From 1280px the app holds a column beside the page for the site's promo (promo-aside.tsx): the
  // block takes that class, and the page is drawn in the same column.
  { file: 'client/ui/promo-aside.css', selectors: ['.with-promo-shown'], onBlock: true },
];

/** An album in Your music: its cover's square frame and the page's top (music.css). */
const album: readonly RulePick[] = [
  {
    file: 'client/features/music/music.css',
    selectors: [
      '.album-cover',
      '.album-cover img',
      '.album-back',
      '.album-back a',
      '.album-hero',
      '.album-page-cover',
      '.album-summary',
      '.album-summary h1',
      '.album-artist',
      '.album-artist a',
      '.album-note',
    ],
  },
];

/** What each page picks; `common` comes first in every page's rules (common.ts). */
export const FIRST_VIEW_PICKS = { common, browse, album };
