import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { z } from 'zod';
import { serverMessages } from '../../../shared/api';
import { paymentIntentRequestSchema, testCardSchema } from '../../../shared/schemas/donations';
import { transactionsParamsSchema } from '../../../shared/schemas/fundraisers';
import { invalid, notFound, unavailable } from '../../errors';
import type { AppEnv } from '../../http/context';
import { sendPreparation } from '../../http/send-album';
import { siteUrlForEmails } from '../../http/site-url';
import { requireAdminSession } from '../../http/session';
import { jsonBody, parseWith } from '../../http/validation';
import { csvAttachment } from '../../infra/csv';
import { WebhookSignatureError } from '../../infra/payments/provider';
import { handlePaymentEvent } from './after-sale';
import * as albumFormats from '../fundraisers/album-formats';
import { sendAlbumDownload } from '../fundraisers/routes';
import { askAgainForFees } from './jobs';
import * as adminTransactions from './admin-transactions';
import * as donations from './service';
import * as throttles from './throttles';

// Donations and payments (issue 10; spec part 2 section 7; DESIGN.md "Contract details for money").

const intentIdQuery = z.object({ paymentIntentId: z.string().trim().min(1).max(300) });
const clientSecretQuery = z.object({ clientSecret: z.string().trim().min(1).max(300) });
/** Receipt links carry 32 random bytes in base64url. */
const purchaseToken = (token: string) => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw notFound(serverMessages.purchaseLinkNotValid);
  return token;
};

export const donationRoutes = new Hono<AppEnv>()
  .get('/payments/config', (c) => c.json(donations.paymentConfig(c.get('deps'))))
  // The three calls a card-testing script would make are limited per address and per donor
  // email first (throttles.ts).
  .post('/transactions/create-payment-intent', async (c) => {
    const input = await jsonBody(c, paymentIntentRequestSchema);
    throttles.admitPaymentIntent(c.get('deps'), clientIpOf(c), input.email);
    return c.json(await donations.createPaymentIntent(c.get('deps'), c.get('session'), input));
  })
  .get('/transactions/query', async (c) => {
    const { paymentIntentId } = parseWith(intentIdQuery, c.req.query());
    throttles.admitPaymentLookup(c.get('deps'), clientIpOf(c), paymentIntentId);
    return c.json(await donations.transactionSummary(c.get('deps'), paymentIntentId, siteUrlForEmails(c)));
  })
  .post('/test-payments/confirm', async (c) => {
    const { clientSecret, ...card } = await jsonBody(c, testCardSchema);
    const deps = c.get('deps');
    return c.json(
      await throttles.confirmWithinLimits(deps, clientIpOf(c), clientSecret, () =>
        donations.confirmTestPayment(deps, clientSecret, card, siteUrlForEmails(c)),
      ),
    );
  })
  .get('/test-payments/intent', (c) => {
    const { clientSecret } = parseWith(clientSecretQuery, c.req.query());
    return c.json(donations.testIntentStatus(c.get('deps'), clientSecret));
  })
  /**
   * Stripe's webhook: no cookie and no Origin (the same-origin check lets such requests through),
   * guarded by its signature over the raw body instead. A duplicate or late event is a 200 that
   * changes nothing.
   */
  .post('/stripe/webhook', async (c) => {
    const deps = c.get('deps');
    if (deps.payments.kind !== 'stripe') throw notFound('Stripe is not configured here.');
    const signature = c.req.header('stripe-signature');
    if (!signature) throw invalid('Missing Stripe signature.');
    const raw = await c.req.text();
    let event;
    try {
      event = await deps.payments.verifyWebhook(raw, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw invalid('Invalid Stripe signature.');
      // Stripe could not be asked what the event left out: it sends the event again later.
      throw unavailable('Stripe could not be reached to read this event. Please send it again.');
    }
    await handlePaymentEvent(deps, event, siteUrlForEmails(c));
    return c.json({ received: true });
  })
  .get('/purchases/:token', (c) => c.json(donations.purchaseLink(c.get('deps'), purchaseToken(c.req.param('token')))))
  .get('/purchases/:token/download', (c) =>
    sendAlbumDownload(c, donations.purchasedAlbumOfLink(c.get('deps'), purchaseToken(c.req.param('token')))),
  )
  /** The receipt link's album in a download format (issue 27), as Your music prepares it. */
  .on(['GET', 'POST'], '/purchases/:token/formats/:format', (c) => {
    const deps = c.get('deps');
    const token = purchaseToken(c.req.param('token'));
    const row = donations.purchasedAlbumOfLink(deps, token);
    const format = albumFormats.formatOf(c.req.param('format'));
    return sendPreparation(
      c,
      albumFormats.prepareFormat(deps, row, format, {
        retry: c.req.method === 'POST',
        downloadUrl: `/api/purchases/${token}/download?format=${format}`,
      }),
    );
  })
  /** The admins' Transactions tab (spec part 2 section 7): succeeded payments, newest first. */
  .get('/admin/transactions', (c) => {
    requireAdminSession(c);
    const { page, page_size } = parseWith(transactionsParamsSchema, c.req.query());
    return c.json(adminTransactions.listTransactions(c.get('deps'), page, page_size));
  })
  /** Asks the processor again for the fees it never reported (the fee job gave up on them). */
  .post('/admin/transactions/fee-checks', (c) => {
    requireAdminSession(c);
    return c.json(askAgainForFees(c.get('deps')));
  })
  /** All of them as CSV, streamed a page at a time whatever the count. */
  .get('/admin/transactions/download', (c) => {
    requireAdminSession(c);
    return c.body(adminTransactions.transactionsCsv(c.get('deps')), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': csvAttachment('transactions'),
      'cache-control': 'no-store',
    });
  });
