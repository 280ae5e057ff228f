import { Hono } from 'hono';
import type { Site } from '../../../shared/schemas/site';
import type { AppEnv } from '../../http/context';

export const siteRoutes = new Hono<AppEnv>()
  .get('/health', (c) => c.json({ ok: true }))
  .get('/site', (c) => {
    const { config } = c.get('deps');
    const site: Site = {
      siteName: config.siteName,
      contactEmail: config.contactEmail,
      postalAddress: config.postalAddress,
      socialLinks: config.socialLinks,
      promoProjectId: config.promoProjectId,
    };
    return c.json(site);
  });
