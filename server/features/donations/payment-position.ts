import type { Db } from '../../db/client';
import * as journal from '../journal/service';
import type { Deps } from '../../deps';
import { queueGiftEmail } from './gift-delivery';
import * as queries from './queries';
import type { DonationRow } from './queries';

// Between a donation and its money: the payment as the money journal knows it, and the album that
// follows what happened to the money (issue 23).

export function journalPayment(donation: DonationRow): journal.JournalPayment {
  return {
    donationId: donation.id,
    paymentIntentId: donation.paymentIntentId,
    fundraiserId: donation.fundraiserId,
    charityEin: donation.charityEin,
    donationCents: donation.amountCents,
    tipCents: donation.tipCents,
    feeCoverCents: donation.feeCoverCents,
  };
}

/**
 * The donation's state and album after its money moved: once the whole payment went back (refunds,
 * disputes lost) the donation is refunded and the album goes; if a refund then fails, both come
 * back, and a gift's email the refund had stopped is queued again. In the caller's transaction;
 * true when the album was taken away now (the caller clears
 * what remembers permissions to stream once it commits).
 */
export function settleAlbum(deps: Deps, tx: Db, donation: DonationRow, at: Date, siteUrl: string): boolean {
  if (donation.status !== 'succeeded' && donation.status !== 'refunded') return false;
  const position = journal.paymentPosition(tx, journalPayment(donation));
  if (position.fullyTakenBack && queries.markRefunded(tx, donation.id, at)) {
    queries.revokePurchase(tx, donation.id, at);
    return true;
  }
  if (!position.fullyTakenBack && queries.markRestored(tx, donation.id, at)) {
    queries.restorePurchase(tx, donation.id);
    // A gift whose email the refund stopped goes out after all (its job sends it once).
    if (donation.giftRecipientEmail && !donation.giftSentAt) {
      queueGiftEmail(tx, donation, siteUrl, deps.config.timeZone, at);
    }
  }
  return false;
}
