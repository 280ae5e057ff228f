import { Hono } from 'hono';
import type { Site } from '../../../shared/answers/site';
import { databaseProblem } from '../../db/health';
import type { AppEnv } from '../../http/context';
import { isPublicFundraiser } from '../fundraisers/service';

export const siteRoutes = new Hono<AppEnv>()
  // For systemd, Caddy and monitors (deploy/): 200 while the database answers, else 503. It says
  // nothing more: no version, no figures, nothing about anyone.
  .get('/health', (c) => {
    const { db, logger } = c.get('deps');
    const problem = databaseProblem(db);
    if (problem === null) return c.json({ ok: true });
    logger.error({ problem }, 'health check: the database does not answer');
    return c.json({ ok: false }, 503);
  })
  .get('/site', (c) => {
    const { config } = c.get('deps');
    const site: Site = {
      siteName: config.siteName,
      contactEmail: config.contactEmail,
      postalAddress: config.postalAddress,
      socialLinks: config.socialLinks,
      // Only a promo there is to show: pages need not ask for one that would answer 404.
      promoProjectId: isPublicFundraiser(c.get('deps').db, config.promoProjectId) ? config.promoProjectId : null,
      timeZone: config.timeZone,
    };
    return c.json(site);
  });
