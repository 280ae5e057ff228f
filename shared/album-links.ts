import { type LibraryTab, pageFromUrl } from './api-paths';

// Where Your music and the album page lead each other: the album link carries the tab and page
// it came from, so the album's back link returns to the same page (spec part 1 section 2).

/** The tabs of Your music: the two library lists and the albums saved on this device. */
export type MusicTab = LibraryTab | 'saved';

export const MUSIC_TABS: readonly MusicTab[] = ['past-donations', 'user', 'saved'];

export function isMusicTab(value: string | null | undefined): value is MusicTab {
  return MUSIC_TABS.some((tab) => tab === value);
}

/** A list page of Your music; the first page has no `page` parameter. */
export function musicListPath(tab: MusicTab, page: number): string {
  return `/music/albums/${tab}${page > 0 ? `?page=${page}` : ''}`;
}

/**
 * Where an album page's back link leads, from the page's query: the list and page it was opened
 * from (spec: 'keeping the page number'), or the first page of past donations.
 */
export function albumBackPath(search: URLSearchParams): string {
  const from = search.get('from');
  return musicListPath(isMusicTab(from) ? from : 'past-donations', pageFromUrl(search.get('page')));
}

/** The album page, remembering the list it was opened from. */
export function albumPath(projectSlug: string, from: { tab: MusicTab; page: number }): string {
  const query = new URLSearchParams({ from: from.tab });
  if (from.page > 0) query.set('page', String(from.page));
  return `/music/album/${encodeURIComponent(projectSlug)}?${query}`;
}

/** An album's name as Your music, the album page and the player show it: never an empty heading. */
export function albumTitle(album: { projectName: string }): string {
  return album.projectName.trim() || 'Untitled album';
}
