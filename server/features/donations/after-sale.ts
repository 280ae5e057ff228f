import type { Deps } from '../../deps';
import type { PaymentEvent } from '../../infra/payments/provider';
import * as journal from '../journal/service';
import { journalPayment, settleAlbum } from './payment-position';
import * as queries from './queries';
import { fulfilPayment } from './service';

// What a payment does after the sale (issue 23; DESIGN.md "Contract details for wave 3", money
// journal): refunds, refunds that fail, disputes opened, won and lost. Each is a row of the money
// journal keyed by the provider's object id, so an event delivered twice, at once or out of order
// adds nothing the second time; the album follows the money (payment-position.ts).

const GAVE_NOTHING_BACK = new Set(['failed', 'canceled']);

/**
 * A webhook's event (its signature already checked). Each event is handled once (payment_events),
 * and each movement once (the journal's keys): a failure never undoes a success, a refund counts
 * once however often it is told, and only the whole payment going back takes the album away.
 */
export async function handlePaymentEvent(deps: Deps, event: PaymentEvent, siteUrl: string) {
  if (event.type === 'other') {
    queries.recordEvent(deps.db, event.id, event.type);
    return;
  }
  if (event.type === 'payment_intent.succeeded') {
    await fulfilPayment(deps, event.paymentIntentId, siteUrl, event);
    return;
  }
  if (event.type === 'refunds' || event.type === 'dispute') {
    // Only a payment made can be refunded or disputed: one whose success has not been told yet
    // (its event is late, or lost) is fulfilled first, from what the processor says of it.
    const donation = queries.findDonationByIntent(deps.db, event.paymentIntentId);
    if (donation?.status === 'pending' || donation?.status === 'failed') {
      await fulfilPayment(deps, event.paymentIntentId, siteUrl);
    }
  }
  deps.db.transaction(
    (tx) => {
      if (!queries.recordEvent(tx, event.id, event.type)) return false;
      const donation = queries.findDonationByIntent(tx, event.paymentIntentId);
      if (!donation) return false;
      const now = new Date();
      if (event.type === 'payment_intent.payment_failed') {
        queries.markFailed(tx, donation.id, now);
        return false;
      }
      const payment = journalPayment(donation);
      if (event.type === 'refunds') {
        for (const refund of event.refunds) {
          const failed = GAVE_NOTHING_BACK.has(refund.status);
          journal.recordRefund(deps.db, payment, { id: refund.id, amountCents: refund.amountCents, failed }, now);
        }
      } else {
        journal.recordDispute(deps.db, payment, event.dispute, now);
      }
      const revoked = settleAlbum(deps, deps.db, donation, now, siteUrl);
      // And at once, in every server process: no remembered permission to stream it may outlive
      // the purchase. Counted in this transaction, so it commits with the revocation or not at all.
      if (revoked) deps.streamGrants.clear();
      return revoked;
    },
    { behavior: 'immediate' },
  );
}
