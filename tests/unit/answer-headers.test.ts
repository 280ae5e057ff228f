import { describe, expect, it } from 'vitest';
import {
  AnswerHeaders,
  finishAnswer,
  privateWhenSettingCookies,
  wholeAnswerHeaders,
} from '../../server/http/answer-headers';

// The headers the middleware collect for an answer (server/http/answer-headers.ts): a JSON answer
// is made whole with them at once, any other answer is given them afterwards, and both ways must
// come out the same.

const dataSecurity = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'" };

function collected(setUp: (headers: AnswerHeaders) => void = () => {}) {
  const headers = new AnswerHeaders(dataSecurity);
  headers.fields['x-request-id'] = 'req-1';
  setUp(headers);
  return headers;
}

/** Both ways of giving an answer its headers, as a Headers object each. */
function bothWays(headers: AnswerHeaders, own: Record<string, string>) {
  const whole = new Headers(wholeAnswerHeaders(headers, own) as HeadersInit);
  const finished = new Headers(own);
  finishAnswer(finished, headers, dataSecurity);
  return [whole, finished];
}

describe('the headers an answer is given', () => {
  it('are plain fields, the handler’s own over the collected ones, security last', () => {
    const fields = wholeAnswerHeaders(
      collected((headers) => (headers.defaultCacheControl = 'private, no-store')),
      { 'content-type': 'application/json', 'x-content-type-options': 'sniff-away' },
    );
    expect(fields).toEqual({
      'x-request-id': 'req-1',
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'private, no-store',
    });
  });

  it('keep a route’s own cache policy over the default, either way', () => {
    for (const headers of bothWays(
      collected((each) => (each.defaultCacheControl = 'private, no-store')),
      { 'cache-control': 'no-cache' },
    )) {
      expect(headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('carry each cookie on its own line, the last one set for a name winning, and make the answer private', () => {
    const headers = collected((each) => {
      each.deleteCookie('session', { path: '/' });
      each.setCookie('hint', '1', { path: '/' });
      each.setCookie('session', 'new-id', { path: '/', httpOnly: true });
    });
    for (const answer of bothWays(headers, { 'cache-control': 'public, max-age=60' })) {
      expect(answer.getSetCookie()).toEqual(['session=new-id; Path=/; HttpOnly', 'hint=1; Path=/']);
      expect(answer.get('cache-control')).toBe('private, max-age=60');
    }
  });

  it('leave an answer without cookies as cacheable as its route made it', () => {
    const [whole] = bothWays(collected(), { 'cache-control': 'public, max-age=60' });
    expect(whole!.get('cache-control')).toBe('public, max-age=60');
    expect(whole!.has('set-cookie')).toBe(false);
  });

  it('make a cookie-setting answer private however its cache policy reads', () => {
    expect(privateWhenSettingCookies('no-cache')).toBe('private, no-cache');
    expect(privateWhenSettingCookies('public, max-age=31536000, immutable')).toBe(
      'private, max-age=31536000, immutable',
    );
    expect(privateWhenSettingCookies('private, no-store')).toBe('private, no-store');
    expect(privateWhenSettingCookies('no-store')).toBe('no-store');
  });
});
