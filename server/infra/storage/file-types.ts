import type { AudioFormat } from './media';

// Audio and zip files by their first bytes (spec part 2 section 5: wav, mp3, mpeg; .zip). The
// name and the browser's claimed type don't count.

export function audioFormat(head: Buffer): AudioFormat | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  // An ID3v2 tag: version 2.2-2.4, and a size of four 7-bit ("synchsafe") bytes.
  if (
    head.length >= 10 &&
    ascii(0, 3) === 'ID3' &&
    head[3]! >= 2 &&
    head[3]! <= 4 &&
    head[4] !== 0xff &&
    [6, 7, 8, 9].every((i) => head[i]! < 0x80)
  ) {
    return 'mp3';
  }
  // An MPEG audio frame header: 11 sync bits, a known version, layer I-III, a bitrate that is not
  // 'bad' and a sample rate that is not 'reserved'.
  if (head.length >= 4 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const version = (head[1]! >> 3) & 0x03;
    const layer = (head[1]! >> 1) & 0x03;
    const bitrate = head[2]! >> 4;
    const sampleRate = (head[2]! >> 2) & 0x03;
    if (version !== 1 && layer !== 0 && bitrate !== 0x0f && sampleRate !== 0x03) return 'mp3';
  }
  return null;
}

/** A zip archive starts with a local file header (or, when empty, the end-of-directory record). */
export function isZip(head: Buffer): boolean {
  const signature = head.subarray(0, 4).toString('hex');
  return signature === '504b0304' || signature === '504b0506';
}
