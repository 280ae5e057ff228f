// The four link rows of the artist form, by name (no zod here: the public artist page reads them).

/**
 * The four link rows of the artist form (spec part 1 section 4: 'website0-3 and url0-3'): row n
 * is a label `website{n}` and its address `url{n}`, shown on the artist's page as a link named
 * by the label. The spec's names are kept end to end (payload, row, JSON), odd as `website` is
 * for a label, so that one word means one thing everywhere.
 */
export const ARTIST_LINK_ROWS = [0, 1, 2, 3] as const;
export type ArtistLinkRow = (typeof ARTIST_LINK_ROWS)[number];
export const linkLabelKey = (row: ArtistLinkRow) => `website${row}` as const;
export const linkUrlKey = (row: ArtistLinkRow) => `url${row}` as const;
export type ArtistLinkKey = ReturnType<typeof linkLabelKey> | ReturnType<typeof linkUrlKey>;
export const ARTIST_LINK_KEYS: readonly ArtistLinkKey[] = ARTIST_LINK_ROWS.flatMap((row) => [
  linkLabelKey(row),
  linkUrlKey(row),
]);

/** The link rows of anything that has them (a payload, a row, the JSON), '' where missing. */
export function linkValues(from: Partial<Record<ArtistLinkKey, string>>): Record<ArtistLinkKey, string> {
  return Object.fromEntries(ARTIST_LINK_KEYS.map((key) => [key, from[key] ?? ''])) as Record<ArtistLinkKey, string>;
}
