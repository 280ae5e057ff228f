import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { analyticsEventSchema, pageViewSchema } from '../../../shared/schemas/site';
import type { AppEnv } from '../../http/context';
import { jsonBody } from '../../http/validation';
import { countEvent, countPageView } from './service';

// Sent by navigator.sendBeacon, which ignores the answer: 204 keeps it small.
export const analyticsRoutes = new Hono<AppEnv>()
  .post('/analytics/pageview', async (c) => {
    const view = await jsonBody(c, pageViewSchema);
    countPageView(c.get('deps'), view, { clientIp: clientIpOf(c), ownHost: new URL(c.req.url).host });
    return c.body(null, 204);
  })
  .post('/analytics/event', async (c) => {
    const { name } = await jsonBody(c, analyticsEventSchema);
    countEvent(c.get('deps'), name, clientIpOf(c));
    return c.body(null, 204);
  });
