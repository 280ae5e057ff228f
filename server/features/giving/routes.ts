import { Hono } from 'hono';
import {
  givingMessages,
  givingQuerySchema,
  statementQuerySchema,
  statementYearSchema,
} from '../../../shared/schemas/giving';
import { notFound } from '../../errors';
import type { AppEnv } from '../../http/context';
import { requireVerifiedSession } from '../../http/session';
import { siteUrlForEmails } from '../../http/site-url';
import { parseWith } from '../../http/validation';
import * as giving from './service';

// Giving history and the year-end statement (issue 26; DESIGN.md "Contract details for wave 3",
// giving history): a verified email's own payments, as Your music's purchases are (403 until the
// address is verified, 401 for guests), except the statement email's signed link, which needs no
// session.

/** `2025.pdf` → 2025: anything but digits and `.pdf` is no statement (404); a year out of range is a 400. */
function statementYear(file: string): number {
  const digits = /^(\d+)\.pdf$/.exec(file)?.[1];
  if (digits === undefined) throw notFound(givingMessages.statementNotFound);
  return parseWith(statementYearSchema, { year: digits }).year;
}

export const givingRoutes = new Hono<AppEnv>()
  .get('/giving', (c) => {
    const session = requireVerifiedSession(c);
    const query = parseWith(givingQuerySchema, c.req.query());
    return c.json(giving.givingHistory(c.get('deps'), session, query));
  })
  .post('/giving/receipts/:paymentIntentId', (c) => {
    const session = requireVerifiedSession(c);
    const deps = c.get('deps');
    // 202: the copy is queued; it leaves with the next run of the money jobs.
    return c.json(giving.resendReceipt(deps, session, c.req.param('paymentIntentId'), siteUrlForEmails(c)), 202);
  })
  .get('/giving/statement/:file', async (c) => {
    const deps = c.get('deps');
    const { token } = parseWith(statementQuerySchema, c.req.query());
    // Who may have it comes first (the session, or the link's token), then which year it is.
    const statement =
      token === undefined
        ? await giving.statementForSession(deps, requireVerifiedSession(c), statementYear(c.req.param('file')))
        : await giving.statementForToken(deps, token, statementYear(c.req.param('file')));
    // pdf-lib answers a Uint8Array of an ArrayBuffer it made itself, never a shared one.
    return c.body(statement.bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${statement.filename}"`,
      'cache-control': 'private, no-store',
    });
  });
