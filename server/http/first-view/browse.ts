import { type Artist, artistSearchResultSchema } from '../../../shared/answers/artists';
import { type Fundraiser, fundraiserSearchResultSchema } from '../../../shared/answers/fundraisers';
import { type Site, siteSchema } from '../../../shared/answers/site';
import { apiPaths, artistSearchFromUrl, fundraiserSearchFromUrl } from '../../../shared/api-paths';
import { limits, pictureSizes } from '../../../shared/constants';
import type { Picture } from '../../../shared/first-requests';
import { escapeHtml } from '../../../shared/html';
import { iconPaths } from '../../../shared/icon-paths';
import { artistPath, EAGER_TILES, fundraiserPath, fundraiserTitle } from '../../../shared/public-pages';
import { type FirstView, firstViewStyle, uploadedPicture } from './common';
import { FIRST_VIEW } from './picked-rules';
import { PICKED_RULES } from './picked-rules.generated';

// The browse page (/browse, /browse/projects, /browse/artists), drawn before its app starts: the
// heading, the banner, the tabs, the search form and the first tiles of the list, whose first
// picture is the page's largest paint. The markup is the app's own (browse-page.tsx, tab-links.tsx,
// search-form.tsx, fundraiser-search-fields.tsx, fundraiser-tile.tsx, artist-tile.tsx,
// uploaded-picture.tsx), and so are the rules, picked from their stylesheets (picked-rules.ts).
// tests/e2e/browse-fundraisers.test.ts proves that each part is drawn where the app then draws it,
// on a phone and on a desktop.
//
// Only the list a visitor lands on is drawn: a search's own heading counts its matches, and a search
// is made in the app, rarely loaded as a first page; an empty list has no picture to wait for.

const BROWSE_STYLE = firstViewStyle(PICKED_RULES.browse);

type Tab = 'projects' | 'artists';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'projects', label: 'Search fundraisers' },
  { tab: 'artists', label: 'Search artists' },
];

/** A labelled field of the search form, empty (only the unfiltered list is drawn). */
function field(id: string, label: string, control: string): string {
  return `<div class="field"><label for="${id}">${label}</label>${control}</div>`;
}

const searchTermField = field(
  'first-view-search-term',
  'Search term',
  `<input id="first-view-search-term" name="searchTerm" type="search" maxlength="${limits.searchTerm}" value="">`,
);

/** FundraiserSearchFields: the genre's list of choices comes with the app, which alone can use it. */
const FUNDRAISER_FIELDS = [
  searchTermField,
  field(
    'first-view-genre',
    'Genre',
    '<select id="first-view-genre" name="genre"><option value="" selected="">All genres</option></select>',
  ),
  field(
    'first-view-charity-ein',
    'Charity EIN',
    `<input id="first-view-charity-ein" name="charityEin" inputmode="numeric" maxlength="${limits.charityEin}" value="">`,
  ),
].join('');

/**
 * A tile's picture, eager on the first screen and asked for first on the first tile, and the word
 * shown over it on hover (tile.css).
 */
function tileMedia(uploadId: string | undefined, sizes: string, position: number): string {
  const picture = uploadedPicture({ uploadId, sizes, eager: position < EAGER_TILES, priority: position === 0 });
  return `<div class="tile-media">${picture}<span class="tile-hover" aria-hidden="true">View</span></div>`;
}

/** FundraiserTile on a public list. */
function fundraiserTile(fundraiser: Fundraiser, position: number): string {
  const charity = fundraiser.supportedOrg
    ? `<p class="fundraiser-tile-charity"><span class="visually-hidden">Supports </span><svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="${iconPaths.heart}"></path></svg><span>${escapeHtml(fundraiser.supportedOrg)}</span></p>`
    : '';
  return [
    '<article class="card tile fundraiser-tile">',
    tileMedia(fundraiser.albumCover, pictureSizes.fundraiserTile, position),
    '<div class="tile-body">',
    `<h3 class="tile-name"><a class="tile-link" href="${escapeHtml(fundraiserPath(fundraiser))}">${escapeHtml(fundraiserTitle(fundraiser))}</a></h3>`,
    `<p class="fundraiser-tile-artist">${escapeHtml(fundraiser.artist.name)}</p>`,
    charity,
    '</div></article>',
  ].join('');
}

/** ArtistTile on a public list (no owner's controls). */
function artistTile(artist: Artist, position: number): string {
  return [
    '<article class="card tile artist-tile">',
    tileMedia(artist.profileImage, pictureSizes.gridTile, position),
    '<div class="tile-body">',
    `<h3 class="tile-name"><a class="tile-link" href="${escapeHtml(artistPath(artist))}">${escapeHtml(artist.name)}</a></h3>`,
    `<p class="artist-tile-description">${escapeHtml(artist.description)}</p>`,
    '</div></article>',
  ].join('');
}

/** The first tile's picture, for the page's preload: the rendition the tile will choose. */
const tilePicture = (uploadId: string | undefined, sizes: string): Picture | undefined =>
  uploadId ? { uploadId, sizes } : undefined;

type BrowseList = {
  tab: Tab;
  /** The search form's own fields, before its Search button. */
  fields: string;
  heading: string;
  listClassName: string;
  /** The list's first tiles, drawn. */
  tiles: string[];
  /** The picture of its first tile, preloaded. */
  picture: Picture | undefined;
};

/**
 * BrowsePage with its list's first tiles. On desktops from 1280px the app holds a column beside
 * the page for the site's promo (promo-aside.tsx) as soon as the site has one, before the promo
 * has come: the page is drawn in the same column.
 */
function browseView(site: Site, list: BrowseList): FirstView {
  const tabs = TABS.map(({ tab, label }) => {
    const current = tab === list.tab ? ' aria-current="page"' : '';
    return `<a class="tab" href="/browse/${tab}"${current}>${label}</a>`;
  }).join('');
  const searchLabel = TABS.find(({ tab }) => tab === list.tab)!.label;
  const main = [
    `<div class="${FIRST_VIEW}${site.promoProjectId === null ? '' : ' with-promo-shown'}"><div class="page stack">`,
    '<h1>Browse artists &amp; fundraisers</h1>',
    '<div class="desktop-only"><div class="card browse-banner"><p class="browse-banner-text">Promote your music, support your charity</p>',
    '<a class="button button-primary" href="/fundraisers/new">Start a fundraiser</a></div></div>',
    `<nav class="tabs" aria-label="Browse">${tabs}</nav>`,
    // Drawn, not yet usable (inert): what is typed before the app starts would be lost as it
    // draws its own form in its place.
    `<form class="form browse-search" role="search" aria-label="${searchLabel}" inert="">`,
    `<div class="form-row">${list.fields}</div>`,
    '<p class="actions"><button type="submit" class="button button-primary">Search</button></p></form>',
    '<section class="section stack" aria-labelledby="first-view-results">',
    `<h2 id="first-view-results">${list.heading}</h2>`,
    `<ul class="grid ${list.listClassName}" role="list">${list.tiles.map((tile) => `<li>${tile}</li>`).join('')}</ul>`,
    '</section></div></div>',
  ].join('');
  return { style: BROWSE_STYLE, main, picture: list.picture };
}

/**
 * The browse page's first view, from the answers its HTML carries (the site's, for its promo, and
 * the tab's search), read with their schemas: nothing is drawn from an answer of another shape.
 */
export function browseFirstView(
  params: Record<string, string>,
  search: URLSearchParams,
  answers: ReadonlyMap<string, unknown>,
): FirstView | undefined {
  const site = siteSchema.safeParse(answers.get(apiPaths.site));
  if (!site.success) return undefined;
  if (params.tab === 'artists') {
    const query = artistSearchFromUrl(search);
    const result = artistSearchResultSchema.safeParse(answers.get(apiPaths.artistSearch(query)));
    if (query.searchTerm !== '' || !result.success || result.data.results.length === 0) return undefined;
    const artists = result.data.results.slice(0, EAGER_TILES);
    return browseView(site.data, {
      tab: 'artists',
      fields: searchTermField,
      heading: 'Recent artists',
      listClassName: 'artist-tiles',
      tiles: artists.map(artistTile),
      picture: tilePicture(artists[0]!.profileImage, pictureSizes.gridTile),
    });
  }
  const query = fundraiserSearchFromUrl(search);
  const result = fundraiserSearchResultSchema.safeParse(answers.get(apiPaths.fundraiserSearch(query)));
  const filtered = query.searchTerm !== '' || query.genre !== '' || query.charityEin !== '';
  if (filtered || !result.success || result.data.results.length === 0) return undefined;
  const fundraisers = result.data.results.slice(0, EAGER_TILES);
  return browseView(site.data, {
    tab: 'projects',
    fields: FUNDRAISER_FIELDS,
    heading: 'Recent fundraisers',
    listClassName: 'fundraiser-tiles',
    tiles: fundraisers.map(fundraiserTile),
    picture: tilePicture(fundraisers[0]!.albumCover, pictureSizes.fundraiserTile),
  });
}
