import fc from 'fast-check';
import { parse } from 'hono/utils/cookie';
import { describe, expect, it } from 'vitest';
import { cookiesNamed } from '../../server/http/request-cookies';

// The session's cookies read in one pass (server/http/request-cookies.ts) read as hono/cookie's
// getCookie(c, name) reads each, whatever the header holds: the session must not be found in a
// header Hono would not find it in, nor missed in one where it would.

const names = ['soundcause_session', 'soundcause_signed_in'] as const;
const byHono = (header: string) => names.map((name) => parse(header, name)[name]);

/** Headers of pairs made of the pieces that matter: the names and near-names, spaces, quotes, escapes, and garbage. */
const pad = fc.constantFrom('', '', ' ', '\t', '  ');
const name = fc.constantFrom(...names, ...names, 'soundcause', 'soundcause_session_old', 'other', '');
const value = fc
  .array(fc.constantFrom('abc', '1', '"', ' ', '%20', '%E0%A4%A', ',', '\\', 'é', '=', ''), { maxLength: 4 })
  .map((pieces) => pieces.join(''));
const pair = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(pad, name, pad, value, pad).map(([a, n, b, v, c]) => `${a}${n}${b}=${v}${c}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const header = fc.oneof(
  fc
    .tuple(fc.array(pair, { maxLength: 6 }), fc.constantFrom(';', '; ', ' ;'))
    .map(([pairs, separator]) => pairs.join(separator)),
  fc.string({ maxLength: 60 }),
);

describe("the session's cookies", () => {
  it('read as Hono reads them, for any header', () => {
    fc.assert(
      fc.property(header, (text) => {
        expect(cookiesNamed(text, names)).toEqual(byHono(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('take the first acceptable value of each, trimmed, unquoted and decoded, and none from an absent header', () => {
    expect(
      cookiesNamed(' soundcause_session = "a b" ;soundcause_session=later; soundcause_signed_in=%31', names),
    ).toEqual(['a b', '1']);
    expect(cookiesNamed('soundcause_session=bad"value; soundcause_session=good', names)).toEqual(['good', undefined]);
    expect(cookiesNamed('soundcause_session_old=x; xsoundcause_session=y', names)).toEqual([undefined, undefined]);
    expect(cookiesNamed(undefined, names)).toEqual([undefined, undefined]);
  });
});
