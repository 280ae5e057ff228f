import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loggedPath, queryOf } from '../../server/http/log-redaction';

// What the access log writes of an address (issue 22): the rest of the address, never its secrets.
// tests/api/access-log.test.ts reads a real server's log for the tokens it handed out.

const token = 'q3B0Xn2yX9zT1mVvR6kL8pJd4sWcA7eHuYiOgNfKb5M';

describe('the access log’s paths', () => {
  it.each([
    [`/purchases/${token}`, '/purchases/[redacted]'],
    [`/api/purchases/${token}`, '/api/purchases/[redacted]'],
    [`/api/purchases/${token}/download`, '/api/purchases/[redacted]/download'],
    [`/api/purchases/not-even-a-token/download`, '/api/purchases/[redacted]/download'],
    [`/reset-password/${token}`, '/reset-password/[redacted]'],
    [`/api/token-user/${token}`, '/api/token-user/[redacted]'],
    // A payment intent's id: the giving history's receipt copies (issue 26).
    ['/api/giving/receipts/pi_3NxYz123', '/api/giving/receipts/[redacted]'],
    // A token under a route nobody listed yet.
    [`/api/giving/statements/${token}.pdf`, '/api/giving/statements/[redacted]'],
  ])('takes the token out of %s', (path, logged) => {
    expect(loggedPath(path, '')).toBe(logged);
  });

  it('leaves no token in a path made of slugs, ids, route words and tokens, wherever they stand', () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'purchases', 'token-user', 'reset-password', 'giving', 'receipts', 'download', 'stream'),
      fc.stringMatching(/^[a-z0-9-]{1,60}$/),
      fc.stringMatching(/^[A-Za-z0-9_-]{32,48}$/),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', '.pdf', '.mp3'),
        (parts, ext) => {
          const logged = loggedPath(`/${parts.join('/')}${ext}`, '');
          const segments = logged.split('/');
          for (const [index, each] of segments.entries()) {
            // Nothing shaped like a token is left (upper and lower case, 32 characters or more).
            if (/^[\w-]{32,}/.test(each)) expect(/[A-Z]/.test(each) && /[a-z]/.test(each)).toBe(false);
            // What follows a route word that precedes a token is taken out.
            if (['purchases', 'token-user', 'reset-password'].includes(each) && index + 1 < segments.length) {
              expect(segments[index + 1]).toBe('[redacted]');
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps what is no secret: ids, slugs, the list of purchases', () => {
    for (const path of [
      '/api/music-library/purchases',
      '/projects/a-very-long-fundraiser-name-that-goes-on-and-on/donate',
      '/api/tracks/12/stream',
      '/api/fundraisers/683',
    ]) {
      expect(loggedPath(path, '')).toBe(path);
    }
  });

  it('takes out the values of secret parameters and of anything shaped like a token', () => {
    const query = new URLSearchParams({
      grant: 'g.1234.abcdef',
      v: '3',
      clientSecret: 'ti_1_secret_2',
      callbackSecret: 'abc',
      paymentIntentId: 'pi_123',
      payment_intent: 'pi_456',
      payment_intent_client_secret: 'pi_456_secret_789',
      resetToken: 'x',
      t: token,
      page: '2',
    }).toString();
    expect(loggedPath('/api/tracks/5/stream', query)).toBe(
      '/api/tracks/5/stream?grant=[redacted]&v=3&clientSecret=[redacted]&callbackSecret=[redacted]' +
        '&paymentIntentId=[redacted]&payment_intent=[redacted]&payment_intent_client_secret=[redacted]' +
        '&resetToken=[redacted]&t=[redacted]&page=2',
    );
  });

  it("takes out an email address, the personal data an address may carry (the purchase page's sign-up link)", () => {
    expect(loggedPath('/signup', 'email=donor%40example.org')).toBe('/signup?email=[redacted]');
    expect(loggedPath('/artists/new', 'step=2&e=donor%2Btag%40example.org')).toBe('/artists/new?step=2&e=[redacted]');
    expect(loggedPath('/api/fundraisers', 'searchTerm=jazz')).toBe('/api/fundraisers?searchTerm=jazz');
  });

  it('keeps a long query short, and finds the query of a URL', () => {
    expect(loggedPath('/api/fundraisers/search', `searchTerm=${'a'.repeat(5000)}`).length).toBeLessThan(600);
    expect(queryOf('http://localhost/api/x?grant=1&v=2')).toBe('grant=1&v=2');
    expect(queryOf('http://localhost/api/x')).toBe('');
  });
});
