/**
 * Words of a search term as an FTS5 prefix query: "jaz coll" → "jaz"* "coll"*. Each word is
 * quoted, so nothing typed can act as FTS5 syntax; marks (\p{M}) stay inside words, as in "संगीत".
 * Null when the term has no words at all.
 */
export function toMatchQuery(searchTerm: string, maxWords = 16): string | null {
  const words =
    searchTerm
      .normalize('NFKC')
      .match(/[\p{L}\p{M}\p{N}]+/gu)
      ?.slice(0, maxWords) ?? [];
  return words.length ? words.map((word) => `"${word}"*`).join(' ') : null;
}
