import zlib from 'node:zlib';

// A page's HTML made once and sent many times (issue 24: the landing pages, for visitors), each
// time with a new nonce on its inline styles (security-headers.ts). Compressing the whole page for
// every answer would cost more than everything else the answer does, so the gzip copy is made
// once, in pieces, around the places the nonce goes: each piece is a run of deflate blocks ending
// on a byte boundary (a sync flush), and an answer is the pieces with the nonce between them as a
// stored (uncompressed) block, the final empty block, and gzip's CRC-32 and length of the whole
// (RFC 1951 section 3.2.4, RFC 1952). Any gzip decoder reads it as one stream.

/**
 * Where a nonce goes. Whatever the page shows of what users typed is escaped (`<` never appears
 * raw in a name, a card or the first answers), so only the app's own inline styles match.
 */
const STYLE_TAG = '<style>';

/** A gzip member's header: deflate, no name, no time, unknown OS (RFC 1952 section 2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** The last block: a fixed-Huffman block holding only its end marker, with BFINAL set. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** `bytes` (under 64 KB) as one stored block, not the last; the stream is byte-aligned before it. */
function storedBlock(bytes: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(0x00, 0); // BFINAL 0, BTYPE 00 (stored), padding
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

export class NoncedPage {
  private readonly parts: Buffer[];
  private deflated?: Buffer[];

  /** `html` with its inline `<style>` elements as they are, without a nonce. */
  constructor(html: string) {
    this.parts = html.split(STYLE_TAG).map((part) => Buffer.from(part));
  }

  /** Its size in bytes, without nonces. */
  get size(): number {
    return this.parts.reduce((sum, part) => sum + part.length, 0);
  }

  private tag(nonce: string) {
    return STYLE_TAG.replace('>', ` nonce="${nonce}">`);
  }

  /** The page with this nonce, uncompressed. */
  text(nonce: string): string {
    return this.parts.map(String).join(this.tag(nonce));
  }

  /**
   * The page with this nonce, gzipped: nothing is compressed again, the work left being the
   * CRC-32 of the page (a few microseconds) and one copy of the compressed bytes.
   */
  gzip(nonce: string): Buffer<ArrayBuffer> {
    this.deflated ??= this.parts.map((part) =>
      zlib.deflateRawSync(part, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    );
    const tag = Buffer.from(this.tag(nonce));
    const stored = storedBlock(tag);
    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    this.parts.forEach((part, index) => {
      if (index > 0) {
        chunks.push(stored);
        crc = zlib.crc32(tag, crc);
        length += tag.length;
      }
      chunks.push(this.deflated![index]!);
      // Node's crc32 answers 0 for an empty buffer of its own (a page ending in <style>), not the
      // CRC it was given: an empty part changes nothing, so it is left out.
      if (part.length > 0) crc = zlib.crc32(part, crc);
      length += part.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    chunks.push(FINAL_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}
