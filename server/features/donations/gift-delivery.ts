import { startOfSiteDay, siteHour } from '../../../shared/site-dates';
import type { Db } from '../../db/client';
import { enqueue } from '../../infra/jobs/queue';
import type { DonationRow } from './queries';

// When a gift's email goes out (issue 26): at once, or at 08:00 on its day where the site is,
// from the durable job queue (jobs.ts sends it, once). Queued by fulfilment, and again when a
// refund that had cancelled it failed and the gift stands after all.

/** Sends a gift's recipient their gift email. */
export const GIFT_JOB = 'donation-gift';

/** The hour of the gift's day, in the site's zone, its email goes out: the morning, not midnight. */
const GIFT_HOUR = 8;

/**
 * When a gift for `day` ("2026-12-24") goes out: 08:00 that day where the site is. Eight hours
 * after midnight is 07:00 or 09:00 on a day the clocks change, so the wall clock says how far off
 * the first guess is.
 */
export function giftMorning(day: string, timeZone: string): Date {
  const hour = 60 * 60 * 1000;
  const guess = startOfSiteDay(day, timeZone).getTime() + GIFT_HOUR * hour;
  return new Date(guess + (GIFT_HOUR - siteHour(guess, timeZone)) * hour);
}

/** Queues the gift email of `donation` for its morning, or now if that has come. In the caller's transaction. */
export function queueGiftEmail(db: Db, donation: DonationRow, siteUrl: string, timeZone: string, now: Date) {
  const morning = donation.giftDeliverOn ? giftMorning(donation.giftDeliverOn, timeZone) : now;
  enqueue(db, GIFT_JOB, { donationId: donation.id, siteUrl }, { maxAttempts: 8, runAt: morning > now ? morning : now });
}
