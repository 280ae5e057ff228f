// What the access log says of a request's address (issue 22). A link that carries a secret (a
// receipt's download link, a reset link, a stream grant, a client secret) works for whoever
// holds it, and logs are read, copied and kept by more people and systems than should hold any
// of those; so the secret parts, and email addresses, are replaced before a line is written. The
// rest stays, to debug by.

const REDACTED = '[redacted]';

/**
 * Paths whose next segment is a bearer token (reset links and receipts' purchase links), or a
 * payment intent's id (a receipt's copy, asked for from the giving history), which is as much a
 * key to the donor's address as the success lookup's parameter below.
 */
const TOKEN_ROUTES = String.raw`token-user|reset-password|purchases|giving\/receipts`;
const TOKEN_AFTER = new RegExp(String.raw`\/(${TOKEN_ROUTES})\/[^/]+`, 'g');

/**
 * Any other segment shaped like one of our random tokens (32 bytes of base64url, upper and lower
 * case mixed, perhaps with a file's extension): a token route added later is covered before
 * anyone remembers this file. Slugs are lower case and ids are digits, so neither is taken for one.
 */
const TOKEN_MIN_CHARS = 32;
const TOKEN_SEGMENT = new RegExp(
  String.raw`\/(?=[^/]*[A-Z])(?=[^/]*[a-z])[\w-]{${TOKEN_MIN_CHARS},}(?:\.\w{1,8})?(?=\/|$)`,
  'g',
);
const TOKEN_VALUE = new RegExp(String.raw`^(?=.*[A-Z])(?=.*[a-z])[\w-]{${TOKEN_MIN_CHARS},}$`);

/**
 * Query parameters whose value is a secret or the key to someone's data: stream grants, tokens,
 * client and callback secrets, signatures, and a payment intent's id (with it, the success
 * lookup tells anyone the donor's email address).
 */
const SECRET_PARAMETER = /grant|token|secret|signature|password|key|payment_?intent/i;

/**
 * An email address, in a parameter of that name or in any value: personal data, which the log
 * has no need of (the purchase page's sign-up link carries the donor's, `/signup?email=`).
 */
const EMAIL_PARAMETER = /e-?mail/i;
const EMAIL_VALUE = /[^@\s]@[^@\s]/;

/** A query is kept to this length: a line per request, not a copy of whatever was sent. */
const QUERY_CHARS = 500;

/**
 * What either pattern above needs somewhere in a path, made of the same parts so the two cannot
 * drift apart. Most paths have neither, and one plain test is a fraction of the two replaces'
 * look-aheads at every slash (a line per request, issue 24). A run of token characters is tried
 * only from its first character (the look-behind): tried from every character, each attempt
 * reading on to the run's end, a fundraiser's slug took a microsecond to clear.
 */
const MAY_HOLD_TOKEN = new RegExp(String.raw`\/(?:${TOKEN_ROUTES})\/|(?<![\w-])[\w-]{${TOKEN_MIN_CHARS}}`);

/** The path and query of a request as the access log writes them, with the secrets taken out. */
export function loggedPath(path: string, query: string): string {
  const safePath = MAY_HOLD_TOKEN.test(path)
    ? path.replace(TOKEN_AFTER, `/$1/${REDACTED}`).replace(TOKEN_SEGMENT, `/${REDACTED}`)
    : path;
  if (query === '') return safePath;
  const pairs: string[] = [];
  for (const [name, value] of new URLSearchParams(query.slice(0, QUERY_CHARS))) {
    const secret =
      SECRET_PARAMETER.test(name) || TOKEN_VALUE.test(value) || EMAIL_PARAMETER.test(name) || EMAIL_VALUE.test(value);
    pairs.push(`${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`);
  }
  return `${safePath}?${pairs.join('&')}`;
}

/** The query part of a URL ('' when there is none), without its '?'. */
export function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}
