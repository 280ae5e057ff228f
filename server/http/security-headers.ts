import { randomBytes } from 'node:crypto';
import { CHARITY_LOGO_SOURCE, VIDEO_EMBED_ORIGINS } from '../../shared/constants';
import type { Config } from '../config';
import { bucketOrigin } from '../infra/storage/s3-objects';

// The headers that tell the browser what the app's pages may do (issue 14), set on every answer
// by the one request middleware (request-context.ts). The Content-Security-Policy allows exactly
// what the app loads; anything else (an injected script, a frame, an image from elsewhere) is
// refused by the browser. Browser tests fail on any violation (tests/fixtures/console-errors.ts).

/**
 * Stripe.js and what it talks to, as Stripe documents it (docs.stripe.com/security/guide,
 * "Content Security Policy"): its script and its frames come from js.stripe.com and its
 * subdomains, 3D Secure from hooks.stripe.com, and the page itself asks api.stripe.com (the
 * success page's intent status). Only with Stripe configured: the test provider loads nothing.
 */
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAMES = [...STRIPE_SCRIPTS, 'https://hooks.stripe.com'];
const STRIPE_API = ['https://api.stripe.com'];

const videoPlayers = Object.values(VIDEO_EMBED_ORIGINS);

/**
 * Where media answers redirect to when they live in a bucket (http/send-media.ts): the bucket's
 * presigned links and the CDN of MEDIA_PUBLIC_URL. The player, images and the offline save
 * (a fetch) follow those redirects, and the browser checks the final URL against the policy.
 */
function mediaOrigins(config: Config): string[] {
  const { bucket, publicUrl } = config.media;
  if (!bucket) return [];
  const origins = [bucketOrigin(config.s3, bucket)];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return [...new Set(origins)];
}

/**
 * The policy for a page whose inline styles carry `nonce`, or for any other answer (no nonce).
 *
 * - Scripts: the app's own files only. No inline script runs: the page's first answers travel in
 *   a `<script type="application/json">` data block, which is never executed, so CSP has no say.
 * - Styles: the app's own stylesheets, and inline `<style>` elements only with this page's nonce:
 *   index.html's critical header rules, and those Radix's scroll lock (react-remove-scroll) adds
 *   at run time, which client/main.tsx hands the same nonce. A nonce rather than a hash because
 *   the scroll lock's rules are made in the browser (the scrollbar's width), so no hash can know
 *   them. The service worker serves the index.html it precached, with the headers it came with,
 *   so its pages keep that copy's nonce and policy, offline too (client-app.ts serves
 *   /index.html with a nonce for it). Style attributes in markup are refused: React writes
 *   `style` props through the CSSOM, which CSP does not govern.
 * - Media: `data:` too, because Howler ends a track by pointing its <audio> at a data: URI of
 *   silence, which stops the download. Saved music and covers come from the service worker at
 *   the same addresses as online, so no blob: is needed.
 * - Workers: the service worker and the player's SharedWorker, both the app's own files.
 * - With media in a bucket, its origin and the CDN's (mediaOrigins).
 * - Frames: the page's own (the Share dialog previews the embedded player) besides the video
 *   players and Stripe's. Framed by no one, except the embedded player's pages, which any site
 *   may frame: that is what they are for (issue 28; DESIGN.md wave 3, "embeds").
 */
function contentSecurityPolicy(config: Config) {
  const stripe = config.stripe !== undefined;
  const media = mediaOrigins(config);
  const directives = (styleSources: string[]): [string, string[]][] => [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(stripe ? STRIPE_SCRIPTS : [])]],
    ['style-src', ["'self'", ...styleSources]],
    ['img-src', ["'self'", CHARITY_LOGO_SOURCE, ...media]],
    ['media-src', ["'self'", 'data:', ...media]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...media, ...(stripe ? STRIPE_API : [])]],
    // 'self': the Share dialog's live preview of the embedded player (issue 28).
    ['frame-src', ["'self'", ...videoPlayers, ...(stripe ? STRIPE_FRAMES : [])]],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  const write = (styleSources: string[]) =>
    directives(styleSources)
      .map(([name, sources]) => `${name} ${sources.join(' ')}`)
      .join('; ');
  // Built once; a page's policy is the same text around its nonce.
  const withoutNonce = write([]);
  const [before, after] = write(["'nonce-NONCE'"]).split('NONCE') as [string, string];
  const page = (nonce: string | undefined) => (nonce === undefined ? withoutNonce : before + nonce + after);
  // The embedded player (issue 28) is made to be shown in any site's frame: a policy of its own,
  // allowing what it loads and nothing else. Its script and styles (no inline ones), its cover and
  // previews (from the site or the bucket), its reports; no frames, workers, forms or Stripe.
  const framable = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${["'self'", ...media].join(' ')}`,
    `media-src ${["'self'", ...media].join(' ')}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
  return { page, framable };
}

/**
 * Powerful features the app never uses are denied to the page and every frame in it. The video
 * players keep autoplay, encrypted media (some videos are protected), fullscreen and
 * picture-in-picture, which their iframe's `allow` grants them; the page itself keeps autoplay
 * (the player moves the sound between tabs). Payment (Apple Pay, Google Pay) only for Stripe's
 * frames, which need it, and only with Stripe configured. The page's own origin must be in an
 * allowlist for a frame to be granted the feature.
 *
 * Only features browsers know as policy-controlled: Chromium logs every name it does not know on
 * every page ("Unrecognized feature"), which fails the browser tests, and a name no browser knows
 * denies nothing. Web Bluetooth, for one, is not governed by this header (Chromium asks the user
 * each time instead). tests/e2e/security-headers.test.ts checks the list against Chromium's.
 */
function permissionsPolicy(config: Config): string {
  const players = videoPlayers.map((origin) => `"${origin}"`).join(' ');
  const stripeFrames = STRIPE_SCRIPTS.map((origin) => `"${origin}"`).join(' ');
  const denied = [
    'accelerometer',
    'camera',
    'display-capture',
    'geolocation',
    'gyroscope',
    'hid',
    'idle-detection',
    'magnetometer',
    'microphone',
    'midi',
    'serial',
    'usb',
    'xr-spatial-tracking',
    'browsing-topics',
  ];
  return [
    ...denied.map((feature) => `${feature}=()`),
    `payment=(${config.stripe ? `self ${stripeFrames}` : ''})`,
    ...['autoplay', 'encrypted-media', 'fullscreen', 'picture-in-picture'].map(
      (feature) => `${feature}=(self ${players})`,
    ),
  ].join(', ');
}

/** A new nonce for a page's inline styles: 128 random bits (CSP 3 asks for at least that). */
export function newStyleNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The policy of a JSON answer: data, never a document that loads anything, so it may load
 * nothing and be framed nowhere (OWASP's REST guidance). Opened in a tab, it is shown as text.
 * The page-only headers (features, opener, referrer, the old frame header) mean nothing to it,
 * and leaving them off keeps the API's answers small and cheap (issue 13).
 */
const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The security headers of an answer. `https`: whether the caller reached the site over HTTPS
 * (then HSTS tells the browser never to use plain HTTP for it again; over HTTP browsers ignore it
 * anyway). `contentType`: the answer's. `styleNonce`: the nonce of the page's inline styles, for a
 * page. A JSON answer's are the same every time, made once.
 */
export function securityHeaders(config: Config) {
  const csp = contentSecurityPolicy(config);
  const permissions = permissionsPolicy(config);
  // Stripe's wallets and some payment methods open a window of their own that must keep its
  // opener; without Stripe no page opens one.
  const openerPolicy = config.stripe ? 'same-origin-allow-popups' : 'same-origin';
  // A year; not includeSubDomains: the site may live beside other hosts of its domain that it
  // does not speak for.
  const transport = (https: boolean): Record<string, string> =>
    https ? { 'strict-transport-security': 'max-age=31536000' } : {};
  const data = (https: boolean): Readonly<Record<string, string>> => ({
    ...transport(https),
    'x-content-type-options': 'nosniff',
    'content-security-policy': DATA_POLICY,
  });
  const dataOverHttps = data(true);
  const dataOverHttp = data(false);
  const forData = (https: boolean): Readonly<Record<string, string>> => (https ? dataOverHttps : dataOverHttp);
  const forDocument = (https: boolean, styleNonce: string | undefined): Record<string, string> => ({
    ...transport(https),
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp.page(styleNonce),
    'permissions-policy': permissions,
    'cross-origin-opener-policy': openerPolicy,
    'referrer-policy': 'strict-origin-when-cross-origin',
    // frame-ancestors 'none' says the same to browsers that know CSP 2; this to those that do not.
    'x-frame-options': 'DENY',
  });
  // No X-Frame-Options: it has no value that allows every site, and CSP's frame-ancestors wins
  // over it in every browser that knows both.
  const forFramable = (https: boolean): Record<string, string> => ({
    ...transport(https),
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp.framable,
    'permissions-policy': permissions,
    'cross-origin-opener-policy': openerPolicy,
    'referrer-policy': 'strict-origin-when-cross-origin',
  });
  return {
    forData,
    forAnswer: (https: boolean, contentType: string | null, styleNonce: string | undefined, framable = false) =>
      contentType?.startsWith('application/json')
        ? forData(https)
        : framable
          ? forFramable(https)
          : forDocument(https, styleNonce),
  };
}
