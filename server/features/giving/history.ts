import type { Giving, GivingCharity, GivingDonation } from '../../../shared/answers/giving';
import { siteCalendarDates, startOfSiteDay } from '../../../shared/site-dates';
import type { Db } from '../../db/client';
import { journalPayment } from '../donations/payment-position';
import * as journal from '../journal/service';
import * as queries from './queries';
import type { DonationRow, HistoryRow } from './queries';

// A donor's giving of one year (issue 26; DESIGN.md "Contract details for wave 3", giving
// history), shared by the history page and the year-end statement so both say the same figures.
// Years are calendar years in the site's time zone (SITE_TIME_ZONE), like every date on the money
// pages: a payment at 07:00 UTC on January 1 was made on December 31 in Portland.

/** A payment of the year as the history and the statement show it. */
export type GivingLine = GivingDonation & {
  /** The album's fair market value, the fundraiser's minimum; null with no album kept (taken back, or no fundraiser). */
  goodsCents: number | null;
  /** The name given with the payment (the statement's donor name without an account name). */
  donorName: string;
};

export type YearOfGiving = Omit<Giving, 'donations'> & { donations: GivingLine[] };

/** The first moment of a year and of the next, in the site's zone. */
export function yearBounds(year: number, timeZone: string) {
  return { from: startOfSiteDay(`${year}-01-01`, timeZone), to: startOfSiteDay(`${year + 1}-01-01`, timeZone) };
}

/** The year a moment fell in, in the site's zone. */
export function siteYear(moment: Date, timeZone: string): number {
  return Number(siteCalendarDates(timeZone)(moment).slice(0, 4));
}

/**
 * What a payment's journal sums say went back to the donor: refunds not reversed, and disputes
 * lost. A dispute still open is neither (the bank may yet give it back to the charity). Stripe
 * allows one dispute per charge, so an open one and a lost one never meet; if they ever did, the
 * payment's own position tells them apart.
 */
function takenBackCents(db: Db, donation: DonationRow, sums: journal.PaymentSums): number {
  if (sums.disputesLost === 0) return sums.refundedCents;
  if (sums.disputesOpen <= 0) return sums.refundedCents + sums.disputedCents;
  const position = journal.paymentPosition(db, journalPayment(donation));
  return position.refundedCents + position.lostCents;
}

function lineOf(db: Db, row: HistoryRow, sums: journal.PaymentSums | undefined): GivingLine {
  const { donation } = row;
  const forCharity = donation.fundraiserId !== null && donation.charityEin !== null;
  // The charity's money as charged (the charge's and the fee cover's rows): the donation is that
  // without the cover the donor added (the fee cover's own row).
  const chargedForCharity = sums?.chargedDonationCents ?? 0;
  const feeCoverCents = sums?.feeCoverCents ?? 0;
  const refundedCents = sums ? takenBackCents(db, donation, sums) : 0;
  // What the charity keeps: what it was given (with the cover) less its part of what went back,
  // and of any dispute still open, so a deduction is never claimed for money the charity does not
  // hold. With nothing open that is exactly donation + cover − its part of refunds and disputes lost.
  const keptCents = sums?.donatedCents ?? 0;
  const takenBackInFull = donation.status === 'refunded';
  const taxDeductibleCents = forCharity && !takenBackInFull ? Math.max(0, keptCents - donation.minimumCents) : 0;
  return {
    paymentIntentId: donation.paymentIntentId,
    date: (donation.succeededAt ?? donation.createdAt).toISOString(),
    fundraiserName: donation.fundraiserId === null ? null : row.fundraiserName?.trim() || 'Untitled fundraiser',
    charityName: forCharity ? (donation.charityName ?? '') : null,
    ein: forCharity ? donation.charityEin : null,
    donationCents: chargedForCharity - feeCoverCents,
    tipCents: sums?.chargedTipCents ?? 0,
    feeCoverCents,
    refundedCents,
    taxDeductibleCents,
    gift:
      donation.giftRecipientName !== null && donation.giftRecipientEmail !== null
        ? { recipientName: donation.giftRecipientName, recipientEmail: donation.giftRecipientEmail }
        : null,
    goodsCents: forCharity && !takenBackInFull ? donation.minimumCents : null,
    donorName: donation.name,
  };
}

/** Per charity (by EIN), what the year's payments to it left tax-deductible; by name. */
function byCharityOf(lines: GivingLine[]): GivingCharity[] {
  const charities = new Map<string, GivingCharity>();
  for (const line of lines) {
    if (line.ein === null) continue;
    const found = charities.get(line.ein);
    // Newest first: the name a charity was last given under names it.
    if (found) found.taxDeductibleCents += line.taxDeductibleCents;
    else
      charities.set(line.ein, {
        ein: line.ein,
        charityName: line.charityName ?? '',
        taxDeductibleCents: line.taxDeductibleCents,
      });
  }
  return [...charities.values()].sort(
    (a, b) => a.charityName.localeCompare(b.charityName) || a.ein.localeCompare(b.ein),
  );
}

/** The years the donor gave in (in the site's zone), newest first. */
export function yearsOfDonor(db: Db, email: string, timeZone: string): number[] {
  const dateOf = siteCalendarDates(timeZone);
  const years = new Set(queries.paymentMomentsOfDonor(db, email).map((moment) => Number(dateOf(moment).slice(0, 4))));
  return [...years].sort((a, b) => b - a);
}

/**
 * The donor's payments of `year` (their email, compared without case), newest first, with their
 * money from the money journal (one GROUP BY for all of them), the totals by charity and the
 * tax-deductible total. Read in one transaction so the rows and their sums agree.
 */
export function yearOfGiving(
  db: Db,
  email: string,
  timeZone: string,
  year: number | undefined,
  now = new Date(),
): YearOfGiving {
  return db.transaction((tx) => {
    const given = yearsOfDonor(tx, email, timeZone);
    const thisYear = siteYear(now, timeZone);
    // This year is always offered, so the page can say there is nothing yet rather than hide it.
    const years = given.includes(thisYear) ? given : [thisYear, ...given].sort((a, b) => b - a);
    const chosen = year ?? given[0] ?? thisYear;
    const { from, to } = yearBounds(chosen, timeZone);
    const rows = queries.donationsOfDonor(tx, email, from, to);
    const sums = journal.sumsOfPayments(
      tx,
      rows.map((row) => row.donation.id),
    );
    const donations = rows.map((row) => lineOf(tx, row, sums.get(row.donation.id)));
    return {
      year: chosen,
      years,
      donations,
      byCharity: byCharityOf(donations),
      taxDeductibleCents: donations.reduce((sum, line) => sum + line.taxDeductibleCents, 0),
    };
  });
}

/** What went back to the donor of one payment (a receipt's copy says so). */
export function refundedToDonor(db: Db, donation: DonationRow): number {
  const sums = journal.sumsOfPayments(db, [donation.id]).get(donation.id);
  return sums ? takenBackCents(db, donation, sums) : 0;
}
