import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsDailyCounts } from '../../db/schema';
import { rateLimited } from '../../errors';
import { serverMessages } from '../../../shared/api';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';

const hitsByIp: ThrottleRule = { bucket: 'analytics-ip', limit: 600, windowMs: 60 * 60 * 1000 };

/** Counts a page view or event for today (UTC). */
export function countHit(db: Db, kind: 'pageview' | 'event', name: string, clientIp: string, now = new Date()) {
  if (takeAttempt(db, hitsByIp, clientIp, now.getTime()) === null) throw rateLimited(serverMessages.rateLimited);
  const day = now.toISOString().slice(0, 10);
  db.insert(analyticsDailyCounts)
    .values({ day, kind, name, count: 1 })
    .onConflictDoUpdate({
      target: [analyticsDailyCounts.day, analyticsDailyCounts.kind, analyticsDailyCounts.name],
      set: { count: sql`${analyticsDailyCounts.count} + 1` },
    })
    .run();
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
]);

export function routeShape(path: string): string {
  const segments = (path.split(/[?#]/)[0] ?? '').split('/').filter(Boolean);
  if (segments.length === 0) return '/';
  const [section = '', ...rest] = segments;
  if (!SECTIONS.has(section) || rest.length > 4) return '(other)';
  return `/${[section, ...rest.map((segment) => (FIXED_WORDS.has(segment) ? segment : ':param'))].join('/')}`;
}
