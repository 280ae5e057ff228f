import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { analyticsEventSchema, pageViewSchema } from '../../../shared/schemas/site';
import type { AppEnv } from '../../http/context';
import { jsonBody } from '../../http/validation';
import { countHit, routeShape } from './service';

// Sent by navigator.sendBeacon, which ignores the answer: 204 keeps it small.
export const analyticsRoutes = new Hono<AppEnv>()
  .post('/analytics/pageview', async (c) => {
    const { path } = await jsonBody(c, pageViewSchema);
    countHit(c.get('deps').db, 'pageview', routeShape(path), clientIpOf(c));
    return c.body(null, 204);
  })
  .post('/analytics/event', async (c) => {
    const { name } = await jsonBody(c, analyticsEventSchema);
    countHit(c.get('deps').db, 'event', name, clientIpOf(c));
    return c.body(null, 204);
  });
