import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NoncedPage } from '../../server/http/nonced-page';

// A kept page's gzip copy is made once in pieces, with each answer's nonce spliced in between as a
// stored deflate block (server/http/nonced-page.ts): whatever the page and the nonce, any gzip
// reader must get the page with that nonce, byte for byte.

const page = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 3000 }), fc.constant('<style>'), fc.constant('é ✓ 🎵')), {
    maxLength: 12,
  })
  .map((parts) => `<!doctype html>${parts.join('')}`);
const nonce = fc.base64String({ minLength: 4, maxLength: 44 });

describe('a page kept with a nonce per answer', () => {
  it('gunzips to the page with that nonce in every <style>, for any page and nonce', () => {
    fc.assert(
      fc.property(page, nonce, nonce, (html, first, second) => {
        const kept = new NoncedPage(html);
        for (const each of [first, second]) {
          const expected = html.replaceAll('<style>', `<style nonce="${each}">`);
          expect(kept.text(each)).toBe(expected);
          expect(zlib.gunzipSync(kept.gzip(each)).toString()).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('compresses a real page about as well as gzip would in one go', () => {
    const html = `<html><head><style>.header{color:red}</style></head><body>${'<p class="card">A fundraiser</p>'.repeat(400)}</body></html>`;
    const spliced = new NoncedPage(html).gzip('bm9uY2Utbm9uY2Utbm9uY2U=');
    const whole = zlib.gzipSync(html, { level: 9 });
    expect(spliced.length).toBeLessThan(whole.length + 64);
  });
});
