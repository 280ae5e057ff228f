// One byte range of a file (RFC 9110 section 14), read the same way by the server's file answers
// (server/http/send-file.ts) and the service worker's answers from music saved on the device
// (client/offline/ranged-blob.ts), so the player sees the same statuses from both.

export type ByteRange = { start: number; end: number };

/**
 * One byte range of a file of `size` bytes (RFC 9110 section 14.1.2): `first-last` (the last byte
 * clipped to the end), `first-` (to the end) or `-suffix` (the last bytes). A header that does not
 * parse, or another unit, is ignored (section 14.2: a server MAY ignore Range). Several ranges are
 * ignored too and the whole file is sent: multipart/byteranges is optional, players ask for one
 * range at a time, and a list of tiny overlapping ranges is a cheap way to make a server work hard.
 */
export function parseRange(header: string, size: number): ByteRange | 'ignore' | 'unsatisfiable' {
  const match = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!match) return 'ignore';
  const specs = match[1]!
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return 'ignore';
  const parts = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!parts || (parts[1] === '' && parts[2] === '')) return 'ignore';
  const [, first, last] = parts;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return 'ignore'; // an invalid range-spec, not an unsatisfiable one
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
