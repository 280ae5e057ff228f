import { deliveryDateProblem, donationMessages } from '../../../shared/donation-rules';
import { feeCoverCents as feeCover } from '../../../shared/fee-cover';
import type { GiftRequest, PaymentIntentRequest } from '../../../shared/schemas/donations';
import { siteCalendarDate } from '../../../shared/site-dates';
import type { CardDetails } from '../../../shared/card-checks';
import { taxDeductibleCents } from '../../../shared/money';
import type { Db } from '../../db/client';
import type { Deps, Session } from '../../deps';
import type { GrantedTrack } from '../../../shared/answers/donations';
import { trackUrls } from '../../../shared/answers/library';
import { formatEin } from '../../../shared/ein';
import { conflict, FormError, notFound, paymentRefused } from '../../errors';
import { serverMessages } from '../../../shared/api';
import { enqueue } from '../../infra/jobs/queue';
import type { PaymentEvent, ReportedFee } from '../../infra/payments/provider';
import { recordPaidTestIntent } from '../../infra/payments/test-provider';
import { randomToken, sha256 } from '../../infra/security/tokens';
import {
  type AlbumDownload,
  purchasedAlbum,
  purchasedAlbumDownload,
  streamableTracks,
} from '../fundraisers/album-media';
import { donationTarget } from '../fundraisers/service';
import * as journal from '../journal/service';
import { queueGiftEmail } from './gift-delivery';
import { journalPayment, settleAlbum } from './payment-position';
import * as queries from './queries';
import type { DonationRow, PurchaseRow } from './queries';

// Donations and payments (issue 10; spec part 2 sections 2-4 and 7; DESIGN.md "Contract details
// for money"). A donation row is made with its payment intent, and fulfilled exactly once, by
// whoever reports the payment first: the webhook, the success page's query or the test provider.

const say = {
  notFound: 'Fundraiser not found.',
  paymentNotFound: 'Payment not found.',
} as const;

export const RECEIPT_JOB = 'donation-receipt';
/** Records the processor's fee of a payment that succeeded before the processor knew it. */
export const FEE_JOB = 'donation-fee';

/** The fee job's attempts: 30 s, 1, 2, 4 … minutes apart, then hourly: about half a day in all. */
export const FEE_ATTEMPTS = 20;

/** The intent id of a donation row whose intent is being made (createPaymentIntent). */
const UNASSIGNED_INTENT = 'unassigned_';

/** How long a receipt's download link works. */
export const DOWNLOAD_LINK_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * How long after the payment the success page's lookup hands out the album to play and download.
 * The lookup needs no session: what opens it is the payment intent's id, which sits in the page's
 * address, in the browser's history and in the redirect back from a bank's check, where others may
 * see it (a shared computer, a screenshot, a link pasted to a friend). The receipt's token, by
 * contrast, only reaches the donor's mailbox. So the intent id opens the album for a day: enough
 * to listen at once and to come back to the page that evening, short enough that an address found
 * later in a history gives nothing. After that, the receipt's link (30 days) or Your music.
 */
const SUCCESS_PAGE_GRANT_MS = 24 * 60 * 60 * 1000;

export function paymentConfig(deps: Deps) {
  return { ...deps.payments.publicConfig, feeRates: deps.config.feeRates };
}

/**
 * POST /api/transactions/create-payment-intent: checks the donation against its fundraiser (the
 * minimum only the server knows for sure), makes the intent for donation + tip and the pending
 * donation row beside it. Guests may donate; a logged-in donor's row remembers who they were.
 */
export async function createPaymentIntent(deps: Deps, session: Session | null, input: PaymentIntentRequest) {
  const target = input.projectId === null ? null : donationTarget(deps.db, input.projectId);
  if (input.projectId !== null && (!target || !target.takesDonations)) throw notFound(say.notFound);
  if (target && input.donationCents < target.minimumCents) {
    throw new FormError([{ field: 'donationCents', message: donationMessages.minimum(target.minimumCents) }]);
  }
  const gift = input.gift && giftOf(deps, session, input.gift);
  // The cover is worked out here, once, and the charge and the donation row carry it from now on.
  const feeCoverCents = input.coverFees ? feeCover(input.donationCents, input.tipCents, deps.config.feeRates) : 0;
  const amountCents = input.donationCents + input.tipCents + feeCoverCents;
  // The row comes first, so the intent can carry its id (a payment in Stripe's dashboard leads to
  // its donation); it holds a placeholder for the intent id until the intent exists.
  const donation = queries.insertDonation(deps.db, {
    fundraiserId: target?.id ?? null,
    paymentIntentId: `${UNASSIGNED_INTENT}${randomToken()}`,
    provider: deps.payments.kind,
    userId: session?.user.id ?? null,
    email: input.email,
    name: input.name,
    amountCents: input.donationCents,
    tipCents: input.tipCents,
    feeCoverCents,
    minimumCents: target?.minimumCents ?? 0,
    charityEin: target?.charityEin ?? null,
    charityName: target?.charityName ?? null,
    source: target ? input.source : null,
    ...gift,
  });
  let intent;
  try {
    intent = await deps.payments.createIntent(amountCents, {
      transactionId: String(donation.id),
      ...(target ? { projectId: String(target.id) } : {}),
      donationCents: String(input.donationCents),
      tipCents: String(input.tipCents),
      feeCoverCents: String(feeCoverCents),
    });
  } catch (error) {
    // No intent, no payment: the row would only ever be a pending donation nobody can pay.
    queries.deleteDonation(deps.db, donation.id);
    throw error;
  }
  queries.assignIntent(deps.db, donation.id, intent.id);
  deps.metrics.donationStarted();
  return { clientSecret: intent.clientSecret, paymentIntentId: intent.id, amountCents, feeCoverCents };
}

/**
 * A gift's columns on the donation row (issue 26), once its delivery date is checked against the
 * site's today: a day from today to a year ahead (today itself, or none, sends it at once). A
 * signed-in donor cannot give to their own account's address either.
 */
function giftOf(deps: Deps, session: Session | null, gift: GiftRequest) {
  if (session && session.user.email.toLowerCase() === gift.recipientEmail) {
    throw new FormError([{ field: 'gift.recipientEmail', message: donationMessages.giftToSelf }]);
  }
  const today = siteCalendarDate(Date.now(), deps.config.timeZone);
  const problem = deliveryDateProblem(gift.deliverOn ?? '', today);
  if (problem) throw new FormError([{ field: 'gift.deliverOn', message: problem }]);
  return {
    giftRecipientName: gift.recipientName,
    giftRecipientEmail: gift.recipientEmail,
    giftMessage: gift.message,
    giftDeliverOn: gift.deliverOn && gift.deliverOn > today ? gift.deliverOn : null,
  };
}

/**
 * Fulfils a paid intent, exactly once whoever calls (DESIGN.md section 3, Fulfilment): the
 * provider is asked whether it was paid and for its fee, then one SQLite transaction marks the
 * donation succeeded, records the purchase and queues the receipt. A second caller finds the
 * donation succeeded and changes nothing. `event` makes it a webhook's work, recorded in the same
 * transaction, so a redelivered event is recognised. Answers the donation as it now stands.
 *
 * A fee Stripe does not know yet does not hold the donor up: the album and the receipt are theirs
 * at once, the payment counts at the estimated fee ("fee pending"), and the fee job records the
 * fee when Stripe has it (jobs.ts).
 */
export async function fulfilPayment(
  deps: Deps,
  paymentIntentId: string,
  siteUrl: string,
  event?: PaymentEvent,
): Promise<DonationRow | undefined> {
  const statements = queries.fulfilmentQueries(deps.db);
  const donation = statements.byIntent.get({ paymentIntentId });
  if (!donation || donation.status === 'succeeded' || donation.status === 'refunded') {
    if (event) queries.recordEvent(deps.db, event.id, event.type);
    return donation;
  }
  const state = await deps.payments.retrieveIntent(paymentIntentId);
  if (state.status !== 'succeeded') return donation;
  const recorded = deps.db.transaction((tx) => recordFulfilment(deps, tx, donation, state.fee, siteUrl, event), {
    behavior: 'immediate',
  });
  if (recorded.fulfilledNow) deps.metrics.fulfilled();
  return recorded.donation;
}

/**
 * Fulfilment's writes, in the caller's transaction: the charge and its fee in the money journal
 * (once: keyed by the intent), the donation succeeded (conditionally: once), the purchase, the
 * receipt's job, and the fee's job when the fee is not known yet. A payment whose refunds came
 * before its success (events arrive in any order) is settled at once: refunded in full, it is
 * recorded as paid and refunded, and gives no album.
 */
function recordFulfilment(
  deps: Deps,
  tx: Db,
  donation: DonationRow,
  fee: ReportedFee | null,
  siteUrl: string,
  event?: PaymentEvent,
): { donation: DonationRow | undefined; fulfilledNow: boolean } {
  const asItStands = (row: DonationRow | undefined) => ({ donation: row, fulfilledNow: false });
  // The statements prepared for the database run on its connection: in this transaction.
  const db = deps.db;
  const statements = queries.fulfilmentQueries(db);
  const paymentIntentId = donation.paymentIntentId;
  if (event && !queries.recordEvent(tx, event.id, event.type)) return asItStands(queries.findDonation(tx, donation.id));
  const now = new Date();
  const facts = journal.recordCharge(db, journalPayment(donation), fee, now, deps.config.feeRates);
  const succeeded = statements.markSucceeded.get({ id: donation.id, at: now.getTime() });
  // Someone else fulfilled it meanwhile (or a refund came first): theirs is the row.
  if (!succeeded) return asItStands(statements.byIntent.get({ paymentIntentId }));
  if (fee === null) enqueue(db, FEE_JOB, { donationId: donation.id }, { maxAttempts: FEE_ATTEMPTS });
  // A gift sent later is the recipient's on its day (the gift job gives it then), not before.
  if (donation.fundraiserId !== null && donation.giftDeliverOn === null) {
    statements.insertPurchase.run({
      donationId: donation.id,
      fundraiserId: donation.fundraiserId,
      // A gift's album is the recipient's (issue 26): their Your music, once they sign up with it.
      email: donation.giftRecipientEmail ?? donation.email,
      createdAt: now,
    });
  }
  enqueue(db, RECEIPT_JOB, { donationId: donation.id, siteUrl }, { maxAttempts: 8 });
  if (donation.giftRecipientEmail) queueGiftEmail(db, donation, siteUrl, deps.config.timeZone, now);
  // Money that went back before the success was heard of (events come in any order).
  if (facts && facts.takenBackCents > 0 && settleAlbum(deps, db, succeeded, now, siteUrl)) {
    return { donation: statements.byIntent.get({ paymentIntentId }), fulfilledNow: true };
  }
  return { donation: succeeded, fulfilledNow: true };
}

/**
 * GET /api/transactions/query: the success page's summary. A donation still pending is fulfilled
 * here if the provider says it was paid (the webhook may come later, or never); 404 until then.
 */
export async function transactionSummary(deps: Deps, paymentIntentId: string, siteUrl: string) {
  const donation = await fulfilPayment(deps, paymentIntentId, siteUrl);
  if (!donation || donation.status !== 'succeeded') throw notFound(say.paymentNotFound);
  const target = donation.fundraiserId === null ? undefined : donationTarget(deps.db, donation.fundraiserId);
  const purchase = target ? queries.findPurchaseByDonation(deps.db, donation.id) : undefined;
  const grantEnds = new Date((donation.succeededAt?.getTime() ?? 0) + SUCCESS_PAGE_GRANT_MS);
  // A gift's album is the recipient's: the giver gets the receipt, not the album (issue 26).
  const isGift = donation.giftRecipientName !== null;
  const listenable =
    purchase && !isGift && !purchase.revokedAt && grantEnds.getTime() > Date.now() ? purchase : undefined;
  return {
    donationCents: donation.amountCents,
    tipCents: donation.tipCents,
    feeCoverCents: donation.feeCoverCents,
    gift: isGift ? { recipientName: donation.giftRecipientName! } : null,
    taxDeductibleCents: taxDeductibleCents(
      journal.chargedMoney(deps.db, donation.id).donationCents,
      donation.minimumCents,
    ),
    minimumCents: donation.minimumCents,
    email: donation.email,
    project: target
      ? {
          id: target.id,
          name: target.name,
          urlSlug: target.urlSlug,
          artistName: target.artistName,
          image: target.image,
        }
      : null,
    // The charity as the donation recorded it, whatever the fundraiser says today.
    charity:
      target && donation.charityName && donation.charityEin
        ? { name: donation.charityName, ein: formatEin(donation.charityEin) }
        : null,
    tracks: listenable ? grantedTracks(deps, listenable, grantEnds) : [],
    downloadUrl: listenable ? grantedDownloadUrl(deps, listenable, grantEnds) : null,
  };
}

/** The album's playable tracks, each stream URL carrying a grant from `purchase` until `until`. */
function grantedTracks(deps: Deps, purchase: PurchaseRow, until: Date): GrantedTrack[] {
  return streamableTracks(deps.db, purchase.fundraiserId).map((track) => ({
    id: track.id,
    name: track.name,
    durationSeconds: track.durationSeconds,
    src: trackUrls.grantedStream(
      track.id,
      track.version,
      deps.urlGrants.sign({ kind: 'track', trackId: track.id }, purchase.id, until),
    ),
  }));
}

/** The album's zip (GET /api/fundraisers/{id}/download) under a grant from `purchase` until `until`. */
function grantedDownloadUrl(deps: Deps, purchase: PurchaseRow, until: Date): string {
  const grant = deps.urlGrants.sign({ kind: 'album', fundraiserId: purchase.fundraiserId }, purchase.id, until);
  return `/api/fundraisers/${purchase.fundraiserId}/download?grant=${encodeURIComponent(grant)}`;
}

/**
 * POST /api/test-payments/confirm: the built-in provider's card form. Answers once fulfilment has
 * committed, so the success page finds the donation at once. 404 when Stripe takes the payments.
 */
export async function confirmTestPayment(deps: Deps, clientSecret: string, card: CardDetails, siteUrl: string) {
  const payments = deps.payments;
  if (payments.kind !== 'test') throw notFound('Test payments are off: Stripe takes the payments here.');
  // Paying and fulfilling commit together: a crash between the two would leave a paid intent
  // with a pending donation that only the donor's return to the success page could fulfil.
  let fulfilledNow = false;
  const result = deps.db.transaction((tx) => {
    const outcome = payments.confirm(clientSecret, card);
    if (outcome.outcome !== 'succeeded') return outcome;
    const donation = queries.fulfilmentQueries(deps.db).byIntent.get({ paymentIntentId: outcome.paymentIntentId });
    if (donation) fulfilledNow = recordFulfilment(deps, tx, donation, outcome.fee, siteUrl).fulfilledNow;
    return outcome;
  });
  if (fulfilledNow) deps.metrics.fulfilled();
  if (result.outcome === 'unknown') throw notFound(say.paymentNotFound);
  if (result.outcome === 'already-paid') throw conflict('This payment has already been made.');
  if (result.outcome === 'declined') throw paymentRefused(result.message);
  return { status: 'succeeded' as const, paymentIntentId: result.paymentIntentId };
}

/** GET /api/test-payments/intent: the state of a test intent, for the donor coming back to pay. */
export function testIntentStatus(deps: Deps, clientSecret: string) {
  const payments = deps.payments;
  if (payments.kind !== 'test') throw notFound('Test payments are off: Stripe takes the payments here.');
  const intent = payments.findByClientSecret(clientSecret);
  if (!intent) throw notFound(say.paymentNotFound);
  return { status: intent.status, paymentIntentId: intent.id, lastError: intent.lastError };
}

/**
 * The purchase a receipt's link names, while the link works and the purchase stands. A link that
 * never was (or whose album was refunded) and one that ran out are both not found (DESIGN.md), each
 * with its own message, so the page can tell the donor which it is.
 */
function purchaseOfLink(deps: Deps, token: string): PurchaseRow & { downloadExpiresAt: Date } {
  const purchase = queries.findPurchaseByTokenHash(deps.db, sha256(token));
  if (!purchase?.downloadExpiresAt || purchase.revokedAt) throw notFound(serverMessages.purchaseLinkNotValid);
  if (purchase.downloadExpiresAt.getTime() < Date.now()) throw notFound(serverMessages.purchaseLinkExpired);
  return { ...purchase, downloadExpiresAt: purchase.downloadExpiresAt };
}

/**
 * GET /api/purchases/{token}: the album a receipt's link gives, to play (each track's stream
 * granted for as long as the link works) and to download; and the buyer's address, since whoever
 * holds the link is the buyer, for their sign-up.
 */
export function purchaseLink(deps: Deps, token: string) {
  const purchase = purchaseOfLink(deps, token);
  const target = donationTarget(deps.db, purchase.fundraiserId);
  if (!target) throw notFound(say.notFound);
  return {
    project: {
      id: target.id,
      name: target.name,
      urlSlug: target.urlSlug,
      artistName: target.artistName,
      image: target.image,
    },
    email: purchase.email,
    expiresAt: purchase.downloadExpiresAt.toISOString(),
    gift: giftFrom(deps, purchase),
    tracks: grantedTracks(deps, purchase, purchase.downloadExpiresAt),
  };
}

/** Who gave the album the link opens, and their message; null when the buyer bought it themselves. */
function giftFrom(deps: Deps, purchase: PurchaseRow) {
  const donation = queries.findDonation(deps.db, purchase.donationId);
  if (!donation?.giftRecipientName) return null;
  return { fromName: donation.name, message: donation.giftMessage ?? '' };
}

/** GET /api/purchases/{token}/download: the album zip, for whoever holds the receipt's link. */
export function purchaseDownload(deps: Deps, token: string): Promise<AlbumDownload> {
  return purchasedAlbumDownload(deps, purchaseOfLink(deps, token).fundraiserId);
}

/** The album a receipt's link gives (issue 27: its download formats), or 404 as purchaseLink. */
export function purchasedAlbumOfLink(deps: Deps, token: string) {
  return purchasedAlbum(deps, purchaseOfLink(deps, token).fundraiserId);
}

/**
 * A donation paid outside the payment flow (the demo content's), recorded as fulfilment records
 * one: a paid test intent (the test provider's records), the donation succeeded, its charge and
 * fee in the journal, and the purchase; no receipt.
 */
export function recordPaidDonation(
  db: Db,
  input: { fundraiserId: number; email: string; name: string; donationCents: number; tipCents: number },
  at: Date,
) {
  const target = donationTarget(db, input.fundraiserId);
  if (!target) throw notFound(say.notFound);
  const intent = recordPaidTestIntent(db, input.donationCents + input.tipCents, at);
  const donation = queries.insertDonation(db, {
    fundraiserId: target.id,
    paymentIntentId: intent.id,
    provider: 'test',
    email: input.email,
    name: input.name,
    amountCents: input.donationCents,
    tipCents: input.tipCents,
    minimumCents: target.minimumCents,
    charityEin: target.charityEin,
    charityName: target.charityName,
    status: 'succeeded',
    succeededAt: at,
    createdAt: at,
    updatedAt: at,
  });
  journal.recordCharge(db, journalPayment(donation), intent.fee, at);
  queries.insertPurchase(db, { donationId: donation.id, fundraiserId: target.id, email: input.email, createdAt: at });
}
