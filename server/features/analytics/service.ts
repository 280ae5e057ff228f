import type { Deps } from '../../deps';
import { rateLimited } from '../../errors';
import { serverMessages } from '../../../shared/api';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import { countForFundraiser, countForSite } from '../insight/service';
import { publishedFundraiserAt } from '../fundraisers/service';

const hitsByIp: ThrottleRule = { bucket: 'analytics-ip', limit: 600, windowMs: 60 * 60 * 1000 };

function checkRate(deps: Pick<Deps, 'db'>, clientIp: string, now: number) {
  if (takeAttempt(deps.db, hitsByIp, clientIp, now) === null) throw rateLimited(serverMessages.rateLimited);
}

/** An event counted for today (the site's day). */
export function countEvent(deps: Deps, name: string, clientIp: string, now = Date.now()) {
  checkRate(deps, clientIp, now);
  countForSite(deps, 'event', name);
}

/** A host name as a browser's URL gives it ("news.example.com", "localhost:5173", "[::1]:3000"). */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
/** The sources that are not hosts: a referrer by one of these names would read as them. */
const NAMED_SOURCES = new Set(['embed', 'site', 'direct', 'other']);

/**
 * Where a page view came from (issue 29): another site's host ("www." dropped), 'direct' when a
 * visit began with no referrer, 'site' for a page this site led to (a visit going on, or a link
 * opened in a new tab), 'other' for a referrer that is no host a site could have.
 */
function sourceOf(referrer: string | undefined, ownHosts: readonly string[]): string {
  if (referrer === undefined) return 'site';
  if (referrer === '') return 'direct';
  const host = referrer.replace(/^www\./, '');
  if (ownHosts.some((own) => own.replace(/^www\./, '') === host)) return 'site';
  // A single word ("intranet") or a name this list uses is not told apart from the rest.
  const looksLikeHost = HOST.test(host) && /[.:[]/.test(host);
  return looksLikeHost && !NAMED_SOURCES.has(host) ? host : 'other';
}

/**
 * A page view for today: by page shape for the site, where a visit began from, and, on a published
 * fundraiser's page, for that fundraiser with its source (its owner's insight).
 */
export function countPageView(
  deps: Deps,
  view: { path: string; referrer?: string | undefined },
  visit: { clientIp: string; ownHosts: readonly string[] },
  now = Date.now(),
) {
  checkRate(deps, visit.clientIp, now);
  const source = sourceOf(view.referrer, visit.ownHosts);
  const fundraiserId = publishedFundraiserAt(deps, view.path);
  // One transaction: one commit (one sync to disk) for the view's two or three counts.
  deps.db.transaction(() => {
    countForSite(deps, 'pageview', routeShape(view.path));
    if (view.referrer !== undefined) countForSite(deps, 'referrer', source);
    if (fundraiserId !== undefined) countForFundraiser(deps, fundraiserId, 'page_view', { detail: source });
  });
}

// The app's top-level sections and the fixed words inside its paths. Everything else in a path
// (ids, slugs, tokens) becomes ':param', so only a bounded set of names is ever stored and none
// of them is personal.
const SECTIONS = new Set([
  'browse',
  'howitworks',
  'about',
  'contact',
  'terms',
  'support',
  'login',
  'signup',
  'user',
  'reset-password',
  'artists',
  'music',
  'projects',
  'fundraisers',
  'admin',
]);
const FIXED_WORDS = new Set([
  'projects',
  'artists',
  'new',
  'user',
  'edit',
  'verify-email',
  'albums',
  'album',
  'past-donations',
  'donate',
  'success',
  'signup',
  'artist',
  'charity',
  'details',
  'music',
  'transactions',
  'disbursements',
  'featured-fundraisers',
  'disbursement-complete',
  'insight',
  'reconciliation',
]);

export function routeShape(path: string): string {
  const segments = (path.split(/[?#]/)[0] ?? '').split('/').filter(Boolean);
  if (segments.length === 0) return '/';
  const [section = '', ...rest] = segments;
  if (!SECTIONS.has(section) || rest.length > 4) return '(other)';
  return `/${[section, ...rest.map((segment) => (FIXED_WORDS.has(segment) ? segment : ':param'))].join('/')}`;
}
