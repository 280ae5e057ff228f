import { Hono } from 'hono';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { insightQuerySchema } from '../../../shared/schemas/insight';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { requireAdminSession, requireSession } from '../../http/session';
import { parseWith } from '../../http/validation';
import { checkMayManage } from '../fundraisers/service';
import * as insight from './service';

// Issue 29: what the days were, for a fundraiser's owner and admins, and for admins site-wide.

export const insightRoutes = new Hono<AppEnv>()
  .get('/fundraisers/:id/insight', (c) => {
    const session = requireSession(c);
    const id = pathId(c.req.param('id'), fundraiserMessages.notFound);
    // Whoever may not see it is refused before the query is read (issue 14).
    checkMayManage(c.get('deps'), session, id);
    const query = parseWith(insightQuerySchema, c.req.query());
    return c.json(insight.fundraiserInsight(c.get('deps'), session, id, query));
  })
  .get('/admin/insight', (c) => {
    requireAdminSession(c);
    const query = parseWith(insightQuerySchema, c.req.query());
    return c.json(insight.adminInsight(c.get('deps'), query));
  });
