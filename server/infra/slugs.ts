import { limits } from '../../shared/constants';

/** A readable URL slug from a name: "Beyoncé & The Band!" → "beyonce-the-band". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
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
