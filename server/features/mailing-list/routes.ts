import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { okSchema } from '../../../shared/answers/api';
import { mailingListSignupSchema } from '../../../shared/schemas/accounts';
import type { AppEnv } from '../../http/context';
import { requireAdminSession } from '../../http/session';
import { jsonBody } from '../../http/validation';
import * as mailingList from './service';

export const mailingListRoutes = new Hono<AppEnv>()
  .post('/mailing-list', async (c) => {
    const { email } = await jsonBody(c, mailingListSignupSchema);
    await mailingList.subscribe(c.get('deps'), email, clientIpOf(c));
    return c.json(okSchema.parse({ ok: true }));
  })
  .get('/admin/mailing-list.csv', (c) => {
    requireAdminSession(c);
    return c.body(mailingList.subscribersCsv(c.get('deps')), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="mailing-list.csv"',
    });
  });
