import type { Giving, ReceiptCopy } from '../../../shared/answers/giving';
import { formatEin } from '../../../shared/ein';
import { givingMessages, type GivingQuery } from '../../../shared/schemas/giving';
import { formatSiteDate } from '../../../shared/site-dates';
import { type StatementRef, statementIdOf, type UrlGrants } from '../../access/url-grants';
import type { Db } from '../../db/client';
import type { Deps, Session } from '../../deps';
import { forbidden, invalid, notFound, rateLimited } from '../../errors';
import { enqueue } from '../../infra/jobs/queue';
import { takeAttempts, type ThrottleRule } from '../../infra/security/throttle';
import { fullName, verifiedAccountName } from '../accounts/service';
import { type GivingLine, siteYear, yearBounds, yearOfGiving } from './history';
import * as queries from './queries';
import type { StatementRow } from './queries';
import { type StatementContent, statementPdf } from './statement-pdf';

// Giving history and the year-end statement (issue 26; DESIGN.md "Contract details for wave 3",
// giving history). Payments belong to an email address, like purchases (DESIGN.md section 3):
// only an account that has proven it holds the address sees them, and the address is the
// session's, never one the caller names. The emails go through the durable job queue (jobs.ts).

/** A copy of a receipt asked for from the giving history. */
export const RECEIPT_COPY_JOB = 'giving-receipt-copy';
/** The year-end statement's link, once per donor and year (send-statements). */
export const STATEMENT_JOB = 'giving-statement';

/**
 * How long a statement email's link opens the statement without logging in: through the filing
 * season the email is sent for (mid-January to mid-March), after which the history has it.
 */
export const STATEMENT_LINK_MS = 60 * 24 * 60 * 60 * 1000;

/**
 * One copy of a payment's receipt per 10 minutes: enough for a donor whose copy went to spam, too
 * few for a script (or a stuck button) to fill their mailbox through us.
 */
const receiptCopies: ThrottleRule = { bucket: 'giving-receipt-copy', limit: 1, windowMs: 10 * 60 * 1000 };

/** GET /api/giving?year=YYYY: the caller's giving of one year. */
export function givingHistory(deps: Deps, session: Session, query: GivingQuery): Giving {
  const year = yearOfGiving(deps.db, session.user.email, deps.config.timeZone, query.year);
  return { ...year, donations: year.donations.map(({ goodsCents: _goods, donorName: _name, ...line }) => line) };
}

/**
 * POST /api/giving/receipts/{paymentIntentId}: the receipt of one of the caller's payments again,
 * to the caller's address; 404 for anyone else's (the answer never says whether it exists).
 */
export function resendReceipt(deps: Deps, session: Session, paymentIntentId: string, siteUrl: string): ReceiptCopy {
  const donation = queries.findDonorPayment(deps.db, session.user.email, paymentIntentId);
  if (!donation) throw notFound(givingMessages.donationNotFound);
  const now = Date.now();
  deps.db.transaction(
    (tx) => {
      // Counted and queued together: a refused copy leaves nothing behind, a taken one its job.
      const taken = takeAttempts(tx, [[receiptCopies, String(donation.id)]], now);
      if ('retryAfterMs' in taken) {
        throw rateLimited(givingMessages.receiptCopyTooSoon(taken.retryAfterMs), 'RATE_LIMITED', taken.retryAfterMs);
      }
      enqueue(tx, RECEIPT_COPY_JOB, { donationId: donation.id, siteUrl, requestedAt: now });
    },
    { behavior: 'immediate' },
  );
  return { sentTo: donation.email };
}

/** A statement PDF and the name it downloads under. */
export type StatementFile = { filename: string; bytes: Uint8Array };

function toStatementLine(siteName: string, line: GivingLine, dateOf: (iso: string) => string) {
  const fundraiser =
    line.fundraiserName === null
      ? `Gift to ${siteName}`
      : line.gift
        ? `${line.fundraiserName} (gift for ${line.gift.recipientName})`
        : line.fundraiserName;
  return {
    date: dateOf(line.date),
    fundraiser,
    charity: line.charityName ?? '—',
    ein: line.ein ? formatEin(line.ein) : '—',
    donationCents: line.donationCents,
    feeCoverCents: line.feeCoverCents,
    tipCents: line.tipCents,
    refundedCents: line.refundedCents,
    goodsCents: line.goodsCents,
    taxDeductibleCents: line.taxDeductibleCents,
  };
}

async function statementOf(
  deps: Deps,
  email: string,
  accountName: string | null,
  year: number,
): Promise<StatementFile> {
  const { config } = deps;
  const giving = yearOfGiving(deps.db, email, config.timeZone, year);
  const dateOf = (iso: string) => formatSiteDate(iso, config.timeZone);
  const content: StatementContent = {
    siteName: config.siteName,
    contactEmail: config.contactEmail,
    postalAddress: config.postalAddress,
    year,
    issuedOn: formatSiteDate(new Date(), config.timeZone),
    // The account's name, else the name given with the newest payment, else the address alone.
    donorName: accountName ?? giving.donations[0]?.donorName ?? email,
    donorEmail: email,
    lines: giving.donations.map((line) => toStatementLine(config.siteName, line, dateOf)),
    byCharity: giving.byCharity.map((charity) => ({ ...charity, ein: formatEin(charity.ein) })),
    taxDeductibleCents: giving.taxDeductibleCents,
  };
  return { filename: `giving-statement-${year}.pdf`, bytes: await statementPdf(content) };
}

/** GET /api/giving/statement/{year}.pdf, signed in: the caller's statement. */
export function statementForSession(deps: Deps, session: Session, year: number): Promise<StatementFile> {
  return statementOf(deps, session.user.email, fullName(session.user), year);
}

/**
 * GET /api/giving/statement/{year}.pdf?token=…, the statement email's link: no session, the
 * signed token names the donor's statement of that very year (url-grants.ts). A token for another
 * year, altered or made elsewhere is refused alike; an expired one says so.
 */
export function statementForToken(deps: Deps, token: string, year: number): Promise<StatementFile> {
  const id = statementIdOf(token);
  const statement = id === null ? undefined : queries.findStatement(deps.db, id);
  const checked =
    statement && statement.year === year ? deps.urlGrants.checkStatement(token, statementRef(statement)) : 'invalid';
  if (checked === 'expired') throw forbidden(givingMessages.statementLinkExpired);
  if (checked !== 'ok' || !statement) throw forbidden(givingMessages.statementLinkInvalid);
  return statementOf(deps, statement.email, verifiedAccountName(deps.db, statement.email), year);
}

const statementRef = (statement: StatementRow): StatementRef => ({
  id: statement.id,
  email: statement.email,
  year: statement.year,
});

/** The statement email's link: the same for every attempt at sending it (its expiry comes from the row). */
export function statementLink(grants: UrlGrants, statement: StatementRow, siteUrl: string) {
  const expiresAt = new Date(statement.createdAt.getTime() + STATEMENT_LINK_MS);
  const token = grants.signStatement(statementRef(statement), expiresAt);
  return { link: `${siteUrl}/api/giving/statement/${statement.year}.pdf?token=${token}`, expiresAt };
}

/** The name a statement email greets the donor by: their verified account's, else their newest payment's. */
export function donorNameOf(db: Db, email: string, year: number, timeZone: string): string | null {
  const accountName = verifiedAccountName(db, email);
  if (accountName) return accountName;
  const { from, to } = yearBounds(year, timeZone);
  return queries.donationsOfDonor(db, email, from, to)[0]?.donation.name.trim() || null;
}

/**
 * `npm run cli -- send-statements --year YYYY`: each donor with a payment that stands, made in that
 * year (in the site's zone), gets one email with their statement's link. Each donor's statement
 * row is claimed first (unique per email and year) and its email queued in the same transaction,
 * so a second run, or two at once, or a crash half-way and a run after it, queue nobody twice;
 * the job's mailer key makes a retried send one message. Only a year that is over: the one
 * statement a donor gets must have the whole year in it.
 */
export function sendStatements(deps: Pick<Deps, 'db' | 'config'>, year: number, siteUrl: string, now = new Date()) {
  const thisYear = siteYear(now, deps.config.timeZone);
  if (year >= thisYear) {
    throw invalid(
      `${year} is not over yet in the site's time zone (${deps.config.timeZone}). Statements go out once per donor and year, so send them when the year has ended.`,
    );
  }
  const { from, to } = yearBounds(year, deps.config.timeZone);
  const donors = queries.donorsBetween(deps.db, from, to);
  let queued = 0;
  for (const email of donors) {
    const claimed = deps.db.transaction(
      (tx) => {
        const statement = queries.claimStatement(tx, email, year, now);
        if (statement) enqueue(tx, STATEMENT_JOB, { statementId: statement.id, siteUrl }, { maxAttempts: 10 });
        return statement !== undefined;
      },
      { behavior: 'immediate' },
    );
    if (claimed) queued += 1;
  }
  return { donors: donors.length, queued, hadOne: donors.length - queued };
}
