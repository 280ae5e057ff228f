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

/**
 * Where a page view came from (issue 29): another site's host, 'direct' when a visit began with no
 * referrer, 'site' for a page this site led to (a visit going on, or a link opened in a new tab).
 */
function sourceOf(referrer: string | undefined, ownHost: string): string {
  if (referrer === undefined || referrer === ownHost.replace(/^www\./, '')) return 'site';
  return referrer === '' ? 'direct' : referrer;
}

/**
 * A page view for today: by page shape for the site, where a visit began from, and, on a published
 * fundraiser's page, for that fundraiser with its source (its owner's insight).
 */
export function countPageView(
  deps: Deps,
  view: { path: string; referrer?: string | undefined },
  visit: { clientIp: string; ownHost: string },
  now = Date.now(),
) {
  checkRate(deps, visit.clientIp, now);
  countForSite(deps, 'pageview', routeShape(view.path));
  const source = sourceOf(view.referrer, visit.ownHost);
  if (view.referrer !== undefined) countForSite(deps, 'referrer', source);
  const fundraiserId = publishedFundraiserAt(deps, view.path);
  if (fundraiserId !== undefined) countForFundraiser(deps, fundraiserId, 'page_view', source);
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
