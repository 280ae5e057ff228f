import { Hono } from 'hono';
import { z } from 'zod';
import {
  disbursementCallbackSchema,
  disbursementStatusUpdateSchema,
  initializeDisbursementSchema,
  manualDisbursementSchema,
} from '../../../shared/schemas/admin-money';
import { normaliseEin } from '../../../shared/ein';
import { pageParam, pageSizeParam } from '../../../shared/schemas/text';
import { notFound } from '../../errors';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { requireAdminSession } from '../../http/session';
import { siteUrlForEmails } from '../../http/site-url';
import { jsonBody, parseWith } from '../../http/validation';
import * as disbursements from './service';

// Disbursements to charities and the public ledger (issue 11; spec part 2 section 7). Every admin
// call checks the session first: 401 for guests, 403 for other users, before reading the input.

const historyParams = z.object({ page: pageParam, page_size: pageSizeParam });
const noSuchDisbursement = 'This disbursement does not exist.';

function einParam(raw: string) {
  const ein = normaliseEin(raw);
  if (ein === null) throw notFound('No charity found with EIN ' + raw);
  return ein;
}

export const disbursementRoutes = new Hono<AppEnv>()
  .get('/ledger', (c) => {
    return c.json(disbursements.ledger(c.get('deps')), 200, { 'cache-control': 'no-cache' });
  })
  .get('/admin/disbursements', (c) => {
    requireAdminSession(c);
    return c.json(disbursements.summaries(c.get('deps')));
  })
  .get('/admin/disbursements/:ein', (c) => {
    requireAdminSession(c);
    const { page, page_size } = parseWith(historyParams, c.req.query());
    return c.json(disbursements.history(c.get('deps'), einParam(c.req.param('ein')), page, page_size));
  })
  .post('/admin/disbursements', async (c) => {
    const session = requireAdminSession(c);
    const input = await jsonBody(c, manualDisbursementSchema);
    return c.json(disbursements.recordManual(c.get('deps'), session, input), 201);
  })
  .post('/admin/disbursement/initialize', async (c) => {
    const session = requireAdminSession(c);
    const input = await jsonBody(c, initializeDisbursementSchema);
    return c.json(disbursements.initialize(c.get('deps'), session, input, siteUrlForEmails(c)));
  })
  .patch('/admin/disbursement/:id', async (c) => {
    requireAdminSession(c);
    const id = pathId(c.req.param('id'), noSuchDisbursement);
    const { status } = await jsonBody(c, disbursementStatusUpdateSchema);
    return c.json(disbursements.updateStatus(c.get('deps'), id, status));
  })
  .patch('/admin/disbursement/:id/callback', async (c) => {
    requireAdminSession(c);
    const id = pathId(c.req.param('id'), noSuchDisbursement);
    const { action, callbackSecret } = await jsonBody(c, disbursementCallbackSchema);
    return c.json(disbursements.callback(c.get('deps'), id, action, callbackSecret));
  });
