import { notFound } from '../errors';

/**
 * A numeric id from a path (DESIGN.md contract details: numeric ids). Digits only, no leading
 * zero: Number() alone would also read '0x1', '1e0', '+1', ' 1' and '01' as ids, giving one thing
 * many addresses (issue 9). Anything else is a 404 with the caller's not-found message.
 */
export function pathId(raw: string, notFoundMessage: string): number {
  const id = Number(raw);
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(id)) throw notFound(notFoundMessage);
  return id;
}
