import { limits } from '../../shared/constants';

/** Latin letters that do not decompose into a base letter and an accent. */
const LATIN_LETTERS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ı: 'i' };

/**
 * A readable URL slug from a name: "Beyoncé & The Band!" → "beyonce-and-the-band". Accents come
 * off Latin letters; other scripts stay as they are ("Мумий Тролль" → "мумий-тролль"), which
 * browsers show readably in the address bar.
 */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[øłđßæœþı]/g, (letter) => LATIN_LETTERS[letter] ?? letter)
    .normalize('NFKD')
    // Only accents on Latin letters go: in other scripts a mark makes a different letter (й, ё).
    .replace(/([a-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // Room is left for a "-123" suffix within the 200-character limit.
  return slug.slice(0, limits.slug - 10).replace(/-+$/, '') || 'untitled';
}

/**
 * The first of slug, slug-2, slug-3... that `isTaken` does not claim. A purely numeric slug is
 * never used, since numeric paths are read as ids.
 */
export function uniqueSlug(name: string, isTaken: (slug: string) => boolean): string {
  const base = /^\d+$/.test(slugify(name)) ? `n-${slugify(name)}` : slugify(name);
  if (!isTaken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!isTaken(candidate)) return candidate;
  }
}
