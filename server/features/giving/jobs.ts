import type { Deps } from '../../deps';
import { PermanentJobError, type JobHandler } from '../../infra/jobs/runner';
import { donationTarget } from '../fundraisers/service';
import * as journal from '../journal/service';
import { receiptCopyEmail, statementEmail } from './emails';
import { refundedToDonor } from './history';
import * as queries from './queries';
import { donorNameOf, RECEIPT_COPY_JOB, STATEMENT_JOB, statementLink } from './service';

// The giving history's jobs, in the money lane (server/compose.ts): a receipt's copy, and a year's
// statement email. Each sends under a mailer key of its own, so an attempt whose outcome was lost
// (a crash after the mail went) and its retry are one message (infra/email/mailer.ts).

type ReceiptCopyPayload = { donationId: number; siteUrl: string; requestedAt: number };
type StatementPayload = { statementId: number; siteUrl: string };

function parseReceiptCopy(payload: unknown): ReceiptCopyPayload {
  const value = payload as Partial<ReceiptCopyPayload> | null;
  if (
    !value ||
    typeof value.donationId !== 'number' ||
    typeof value.siteUrl !== 'string' ||
    typeof value.requestedAt !== 'number'
  ) {
    throw new PermanentJobError('receipt copy job without a donation');
  }
  return { donationId: value.donationId, siteUrl: value.siteUrl, requestedAt: value.requestedAt };
}

function parseStatement(payload: unknown): StatementPayload {
  const value = payload as Partial<StatementPayload> | null;
  if (!value || typeof value.statementId !== 'number' || typeof value.siteUrl !== 'string') {
    throw new PermanentJobError('statement job without a statement');
  }
  return { statementId: value.statementId, siteUrl: value.siteUrl };
}

export function givingJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [RECEIPT_COPY_JOB]: {
      async run(payload) {
        const { donationId, siteUrl, requestedAt } = parseReceiptCopy(payload);
        const donation = queries.findDonation(deps.db, donationId);
        if (!donation) throw new PermanentJobError(`donation ${donationId} is gone`);
        const target = donation.fundraiserId === null ? undefined : donationTarget(deps.db, donation.fundraiserId);
        const purchase = queries.purchaseOfDonation(deps.db, donationId);
        const message = receiptCopyEmail(
          deps.config,
          donation,
          journal.chargedMoney(deps.db, donationId),
          target ? { name: target.name, artistName: target.artistName } : null,
          {
            siteUrl,
            timeZone: deps.config.timeZone,
            requestedAt: new Date(requestedAt),
            refundedCents: refundedToDonor(deps.db, donation),
            // A gift's album is the recipient's: the giver's Your music does not have it.
            albumInYourMusic:
              purchase !== undefined &&
              purchase.revokedAt === null &&
              purchase.email.toLowerCase() === donation.email.toLowerCase(),
          },
        );
        await deps.mailer.send({ ...message, key: `receipt-copy-${donationId}-${requestedAt}` });
      },
    },
    [STATEMENT_JOB]: {
      async run(payload) {
        const { statementId, siteUrl } = parseStatement(payload);
        const statement = queries.findStatement(deps.db, statementId);
        if (!statement) throw new PermanentJobError(`statement ${statementId} is gone`);
        if (statement.sentAt) return;
        const { link, expiresAt } = statementLink(deps.urlGrants, statement, siteUrl);
        await deps.mailer.send({
          ...statementEmail(deps.config, {
            email: statement.email,
            name: donorNameOf(deps.db, statement.email, statement.year, deps.config.timeZone),
            year: statement.year,
            link,
            expiresAt,
            siteUrl,
            timeZone: deps.config.timeZone,
          }),
          key: `giving-statement-${statementId}`,
        });
        queries.markStatementSent(deps.db, statementId, new Date());
      },
      giveUp(payload, error) {
        // The claim stays (once per donor and year is the promise: a send whose outcome was lost
        // may have arrived); the donor still has the statement in their giving history.
        const { statementId } = parseStatement(payload);
        deps.logger.warn(
          { err: error, statementId },
          'a year-end statement email could not be sent: the donor can download it from their giving history',
        );
      },
    },
  };
}
