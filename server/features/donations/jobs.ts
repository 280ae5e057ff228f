import type { Deps } from '../../deps';
import { enqueue } from '../../infra/jobs/queue';
import { PermanentJobError, type JobHandler } from '../../infra/jobs/runner';
import { randomToken, sha256 } from '../../infra/security/tokens';
import { donationTarget } from '../fundraisers/service';
import * as journal from '../journal/service';
import { giftEmail, receiptEmail } from './emails';
import { journalPayment } from './payment-position';
import * as queries from './queries';
import { GIFT_JOB } from './gift-delivery';
import { DOWNLOAD_LINK_MS, FEE_ATTEMPTS, FEE_JOB, RECEIPT_JOB } from './service';

// The donations feature's jobs, in the money lane (server/compose.ts). The receipt: queued by
// fulfilment in its transaction (so a fulfilled payment always gets one), retried when mail
// fails. The fee: queued by fulfilment when Stripe had not settled the charge yet, asking again
// until it has; the payment counts at the estimated fee meanwhile ("fee pending").

type ReceiptPayload = { donationId: number; siteUrl: string };

function parseReceiptPayload(payload: unknown): ReceiptPayload {
  const value = payload as Partial<ReceiptPayload> | null;
  if (!value || typeof value.donationId !== 'number' || typeof value.siteUrl !== 'string') {
    throw new PermanentJobError('receipt job without a donation');
  }
  return { donationId: value.donationId, siteUrl: value.siteUrl };
}

function parseFeePayload(payload: unknown): { donationId: number } {
  const value = payload as { donationId?: unknown } | null;
  if (!value || typeof value.donationId !== 'number') throw new PermanentJobError('fee job without a donation');
  return { donationId: value.donationId };
}

/**
 * The receipt's download link is made once and kept (in plain text) only until the receipt is
 * recorded as sent, so every attempt sends the very same message: one the mail went out for, whose
 * outcome was lost (a crash, a dropped SMTP connection), is not sent twice by the outbox and
 * carries the same Message-ID over SMTP, and the link in it works (issue 14).
 *
 * The fee job never gives up silently (issue 23): past its attempts, the payment is marked as one
 * whose fee was never reported, which the admin's Transactions tab shows, with a way to ask again.
 */
export function donationJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [FEE_JOB]: {
      async run(payload) {
        const { donationId } = parseFeePayload(payload);
        const donation = queries.findDonation(deps.db, donationId);
        if (!donation) throw new PermanentJobError(`donation ${donationId} is gone`);
        const payment = journalPayment(donation);
        if (!journal.paymentPosition(deps.db, payment).feePending) return;
        const state = await deps.payments.retrieveIntent(donation.paymentIntentId);
        if (state.status !== 'succeeded' || state.fee === null) {
          throw new Error(`the fee of payment ${donation.paymentIntentId} is not known yet`);
        }
        const fee = state.fee;
        deps.db.transaction(() => journal.recordFee(deps.db, payment, fee, new Date()), { behavior: 'immediate' });
      },
      giveUp(payload, error) {
        const { donationId } = parseFeePayload(payload);
        queries.markFeeUnreported(deps.db, donationId, new Date());
        deps.logger.warn(
          { err: error, donationId },
          'a payment fee was never reported: it counts at the estimate until an admin asks again',
        );
      },
    },
    [RECEIPT_JOB]: {
      async run(payload) {
        const { donationId, siteUrl } = parseReceiptPayload(payload);
        const donation = queries.findDonation(deps.db, donationId);
        if (!donation) throw new PermanentJobError(`donation ${donationId} is gone`);
        if (donation.receiptSentAt || donation.status !== 'succeeded') return;
        // A gift's album is the recipient's: its link goes in the gift email, not the receipt.
        const isGift = donation.giftRecipientEmail !== null;
        const purchase = isGift ? undefined : queries.findPurchaseByDonation(deps.db, donationId);
        const link = purchase ? `${siteUrl}/purchases/${purchaseLinkToken(deps, purchase)}` : null;
        const target = donation.fundraiserId === null ? undefined : donationTarget(deps.db, donation.fundraiserId);
        const fundraiser = target ? { name: target.name, artistName: target.artistName } : null;
        await deps.mailer.send({
          ...receiptEmail(deps.config, donation, journal.chargedMoney(deps.db, donationId), fundraiser, link),
          key: `receipt-${donationId}`,
        });
        // The link works for 30 days from the receipt's sending.
        const now = new Date();
        queries.markReceiptSent(deps.db, donationId, now, link ? new Date(now.getTime() + DOWNLOAD_LINK_MS) : null);
      },
    },
    [GIFT_JOB]: {
      async run(payload) {
        const { donationId, siteUrl } = parseReceiptPayload(payload);
        const donation = queries.findDonation(deps.db, donationId);
        if (!donation) throw new PermanentJobError(`donation ${donationId} is gone`);
        // Once; and not at all for a payment that went back before the gift's day came.
        if (donation.giftSentAt || donation.status !== 'succeeded') return;
        const target = donation.fundraiserId === null ? undefined : donationTarget(deps.db, donation.fundraiserId);
        if (!target) return;
        // A gift sent later becomes the recipient's now, on its day (fulfilment held it back).
        const purchase = queries.ensurePurchase(deps.db, {
          donationId,
          fundraiserId: target.id,
          email: donation.giftRecipientEmail!,
          createdAt: new Date(),
        });
        if (purchase.revokedAt) return;
        const link = `${siteUrl}/purchases/${purchaseLinkToken(deps, purchase)}`;
        const album = { name: target.name, artistName: target.artistName, charityName: donation.charityName };
        await deps.mailer.send({ ...giftEmail(deps.config, donation, album, link), key: `gift-${donationId}` });
        const now = new Date();
        queries.markGiftSent(deps.db, donationId, now, new Date(now.getTime() + DOWNLOAD_LINK_MS));
      },
      giveUp(payload, error) {
        // The album is the recipient's (Your music, once they sign up), but the email that tells
        // them never went: an operator must know, to write to them.
        const { donationId } = parseReceiptPayload(payload);
        deps.logger.error({ err: error, donationId }, 'a gift email could not be sent: write to its recipient');
      },
    },
  };
}

/**
 * The purchase's link token for the email about to be sent: made once and kept in plain text until
 * the email is recorded as sent, so a retry sends the very same link (see above).
 */
function purchaseLinkToken(deps: Deps, purchase: queries.PurchaseRow): string {
  if (purchase.receiptToken) return purchase.receiptToken;
  const token = randomToken();
  queries.setDownloadToken(deps.db, purchase.id, token, sha256(token), new Date(Date.now() + DOWNLOAD_LINK_MS));
  return token;
}

/**
 * POST /api/admin/transactions/fee-checks: asks the processor again for the fees it never
 * reported (the fee job gave up on them); answers how many are being asked about.
 */
export function askAgainForFees(deps: Deps) {
  return deps.db.transaction((tx) => {
    const ids = queries.takeUnreportedFees(tx);
    for (const donationId of ids) enqueue(tx, FEE_JOB, { donationId }, { maxAttempts: FEE_ATTEMPTS });
    return { asked: ids.length };
  });
}
