import { Hono } from 'hono';
import { reconciliationParamsSchema } from '../../../shared/schemas/admin-money';
import type { AppEnv } from '../../http/context';
import { requireAdminSession } from '../../http/session';
import { parseWith } from '../../http/validation';
import { csvAttachment } from '../../infra/csv';
import { reconcile, reconciliationCsv } from './reconciliation';

// The money journal's admin calls (issue 23): the reconciliation with the payment processor.
// Admins only, checked before the query is read.

export const journalRoutes = new Hono<AppEnv>()
  .get('/admin/reconciliation', async (c) => {
    requireAdminSession(c);
    const period = parseWith(reconciliationParamsSchema, c.req.query());
    return c.json(await reconcile(c.get('deps'), period));
  })
  .get('/admin/reconciliation.csv', async (c) => {
    requireAdminSession(c);
    const period = parseWith(reconciliationParamsSchema, c.req.query());
    const body = await reconciliationCsv(c.get('deps'), period);
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': csvAttachment(`reconciliation-${period.from}-to-${period.to}`),
      'cache-control': 'no-store',
    });
  });
