import { createHash, timingSafeEqual } from 'node:crypto';
import type { Site } from '../../../shared/answers/site';
import type { Deps } from '../../deps';
import { METRICS_CONTENT_TYPE } from '../../infra/metrics';
import { isPublicFundraiser } from '../fundraisers/service';

/** GET /api/site: what every page shows of the site itself. */
export function siteAnswer(deps: Pick<Deps, 'config' | 'db'>): Site {
  const { config } = deps;
  return {
    siteName: config.siteName,
    contactEmail: config.contactEmail,
    postalAddress: config.postalAddress,
    socialLinks: config.socialLinks,
    // Only a promo there is to show: pages need not ask for one that would answer 404.
    promoProjectId: isPublicFundraiser(deps.db, config.promoProjectId) ? config.promoProjectId : null,
    timeZone: config.timeZone,
  };
}

export type MetricsScrape =
  { kind: 'off' } | { kind: 'refused' } | { kind: 'scraped'; text: string; contentType: string };

/** Compared as hashes: equal lengths for timingSafeEqual, and nothing learnt from how long it took. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** GET /metrics: the figures for a caller with `Authorization: Bearer <METRICS_TOKEN>`. */
export async function metricsScrape(deps: Pick<Deps, 'config' | 'metrics'>, authorization: string | undefined) {
  const token = deps.config.metricsToken;
  if (token === undefined) return { kind: 'off' } satisfies MetricsScrape;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (given === undefined || !timingSafeEqual(digest(given), digest(token))) {
    return { kind: 'refused' } satisfies MetricsScrape;
  }
  const text = (await deps.metrics.scrape()) ?? '';
  return { kind: 'scraped', text, contentType: METRICS_CONTENT_TYPE } satisfies MetricsScrape;
}
