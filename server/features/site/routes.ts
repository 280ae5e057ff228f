import { Hono } from 'hono';
import type { Site } from '../../../shared/answers/site';
import type { AppEnv } from '../../http/context';
import { isPublicFundraiser } from '../fundraisers/service';

export const siteRoutes = new Hono<AppEnv>()
  .get('/health', (c) => c.json({ ok: true }))
  .get('/site', (c) => {
    const { config } = c.get('deps');
    const site: Site = {
      siteName: config.siteName,
      contactEmail: config.contactEmail,
      postalAddress: config.postalAddress,
      socialLinks: config.socialLinks,
      // Only a promo there is to show: pages need not ask for one that would answer 404.
      promoProjectId: isPublicFundraiser(c.get('deps').db, config.promoProjectId) ? config.promoProjectId : null,
    };
    return c.json(site);
  });
