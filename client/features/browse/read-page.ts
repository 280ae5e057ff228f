/**
 * Reads the zero-based `page` query parameter. Anything that is not a whole, non-negative number
 * (missing, '', 'abc', '-1', '1.5') is read as the first page, as the spec asks (part 1 section 2, Browse).
 */
export function readPage(value: string | null): number {
  if (value === null || !/^\d+$/.test(value.trim())) return 0;
  const page = Number(value.trim());
  return Number.isSafeInteger(page) ? page : 0;
}
