import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { analyticsEventSchema, pageViewSchema } from '../../../shared/schemas/site';
import type { AppEnv } from '../../http/context';
import { siteUrlForEmails } from '../../http/site-url';
import { jsonBody } from '../../http/validation';
import { countEvent, countPageView } from './service';

// Sent by navigator.sendBeacon, which ignores the answer: 204 keeps it small.
export const analyticsRoutes = new Hono<AppEnv>()
  .post('/analytics/pageview', async (c) => {
    const view = await jsonBody(c, pageViewSchema);
    // The site's own pages: as addressed (the page and its beacon share a host) and as configured.
    const ownHosts = [new URL(c.req.url).host, new URL(siteUrlForEmails(c)).host];
    countPageView(c.get('deps'), view, { clientIp: clientIpOf(c), ownHosts });
    return c.body(null, 204);
  })
  .post('/analytics/event', async (c) => {
    const { name } = await jsonBody(c, analyticsEventSchema);
    countEvent(c.get('deps'), name, clientIpOf(c));
    return c.body(null, 204);
  });
