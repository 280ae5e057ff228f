import { PAGE_SIZE } from '../../../shared/constants';
import { siteCalendarDate, startOfSiteDay } from '../../../shared/site-dates';
import { adminMoneyMessages as say, type CallbackAction } from '../../../shared/schemas/admin-money';
import { type Disbursement, type LedgerEntry, type LedgerTotals } from '../../../shared/answers/admin-money';
import type { z } from 'zod';
import type { initializeDisbursementSchema, manualDisbursementSchema } from '../../../shared/schemas/admin-money';
import type { Db } from '../../db/client';
import type { Deps, Session } from '../../deps';
import { conflict, FormError, invalid, notFound } from '../../errors';
import { randomToken, safeEqual, sha256 } from '../../infra/security/tokens';
import { findDirectoryCharity } from '../charities/service';
import * as journal from '../journal/service';
import { balanceTotals, charityBalance, charityBalances } from './balances';
import { givingSiteDonationUrl, givingSiteSource } from './giving-site';
import * as queries from './queries';
import type { DisbursementRow } from './queries';

// Paying charities what they are owed (issue 11; spec part 2 sections 3-5 and 7; DESIGN.md
// "disbursements"). Routes check the caller is an admin; this keeps the money straight: one
// PENDING at a time per charity, never more than is outstanding, and each one ends exactly once.

function present(row: DisbursementRow): Disbursement {
  return {
    id: row.id,
    ein: row.ein,
    charityName: row.charityName,
    status: row.status,
    notes: row.notes,
    source: row.source,
    amountCents: row.amountCents,
    overriddenOutstandingCents: row.overriddenOutstandingCents,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finalizedAt: row.finalizedAt?.toISOString() ?? null,
  };
}

function balancesOf(db: Db) {
  return charityBalances(
    journal.sumsByCharity(db),
    queries.disbursementTotals(db),
    queries.charityNamesFromDonations(db),
  );
}

/** One charity's figures, read in the caller's transaction. */
function balanceOf(db: Db, ein: string) {
  return charityBalance(
    journal.sumsByCharity(db, ein)[0],
    queries.disbursementTotals(db, ein)[0],
    ein,
    queries.charityNamesFromDonations(db, ein).get(ein),
  );
}

/** GET /api/admin/disbursements: every charity's figures, what is still owed first. */
export function summaries(deps: Deps) {
  return {
    results: balancesOf(deps.db).map(({ lastDisbursedAt: _shownOnTheLedger, pendingSince, ...summary }) => ({
      ...summary,
      pendingSince: pendingSince?.toISOString() ?? null,
    })),
  };
}

/** GET /api/ledger: the public "Where the money goes" — per charity, and no donor anywhere in it. */
export function ledger(deps: Deps): { results: LedgerEntry[]; totals: LedgerTotals } {
  const balances = balancesOf(deps.db);
  return {
    results: balances.map((balance) => ({
      ein: balance.ein,
      charityName: balance.charityName,
      donatedCents: balance.donatedCents,
      feeCoverCents: balance.feeCoverCents,
      afterFeesDonatedCents: balance.afterFeesDonatedCents,
      disbursedCents: balance.disbursedCents,
      outstandingCents: balance.outstandingCents,
      lastDisbursedAt: balance.lastDisbursedAt?.toISOString() ?? null,
    })),
    totals: balanceTotals(balances),
  };
}

/** GET /api/admin/disbursements/{ein}: one charity's history, newest first. */
export function history(deps: Deps, ein: string, page: number, pageSize = PAGE_SIZE) {
  const found = queries.listDisbursements(deps.db, ein, pageSize, page * pageSize);
  return { results: found.results.map(present), totalCount: found.totalCount };
}

function isOnePendingViolation(error: unknown) {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('disbursements.ein')
  );
}

/**
 * POST /api/admin/disbursement/initialize: a PENDING disbursement of at most what is outstanding,
 * with a single-use secret for the giving site's return links, and where to send the admin.
 * Checked and written in one IMMEDIATE transaction, so two presses at once make one.
 */
export function initialize(
  deps: Deps,
  session: Session,
  input: z.output<typeof initializeDisbursementSchema>,
  siteUrl: string,
) {
  const secret = randomToken();
  let row: DisbursementRow;
  try {
    row = deps.db.transaction(
      (tx) => {
        const balance = balanceOf(tx, input.ein);
        if (balance.hasPending) throw invalid(say.pendingDisbursement, 'PENDING_DISBURSEMENT');
        if (input.amountCents > balance.outstandingCents) {
          const outstandingAmountCents = Math.max(balance.outstandingCents, 0);
          throw invalid(say.incorrectAmount(outstandingAmountCents), 'INCORRECT_DISBURSEMENT_AMOUNT', {
            outstandingAmountCents,
          });
        }
        return queries.insertDisbursement(tx, {
          ein: input.ein,
          charityName: balance.charityName,
          status: 'PENDING',
          source: givingSiteSource(deps.config.givingSiteUrl),
          amountCents: input.amountCents,
          callbackSecretHash: sha256(secret),
          createdBy: session.user.id,
        });
      },
      { behavior: 'immediate' },
    );
  } catch (error) {
    // Another process got its PENDING row in first (the unique index's guard).
    if (isOnePendingViolation(error)) throw invalid(say.pendingDisbursement, 'PENDING_DISBURSEMENT');
    throw error;
  }
  const redirectUrl = givingSiteDonationUrl({
    givingSiteUrl: deps.config.givingSiteUrl,
    siteUrl,
    ein: row.ein,
    amountCents: row.amountCents,
    disbursementId: row.id,
    callbackSecret: secret,
  });
  deps.logger.info({ disbursementId: row.id, ein: row.ein, amountCents: row.amountCents }, 'disbursement started');
  return { disbursement: present(row), callbackSecret: secret, redirectUrl };
}

type Ending = 'COMPLETE' | 'CANCELED' | 'FAILED';

/**
 * Ends a PENDING disbursement, once whoever ends it; a completed one is money paid, in the
 * journal in the same transaction.
 */
function finish(deps: Deps, id: number, status: Ending) {
  const ended = deps.db.transaction(
    (tx) => {
      const row = queries.finishPending(tx, id, status, new Date());
      if (row?.status === 'COMPLETE') journal.recordDisbursement(deps.db, row, row.finalizedAt ?? row.updatedAt);
      return row;
    },
    { behavior: 'immediate' },
  );
  if (!ended) throw conflict(say.notPending);
  deps.logger.info({ disbursementId: id, status }, 'disbursement ended');
  return present(ended);
}

function pendingDisbursement(deps: Deps, id: number) {
  const row = queries.findDisbursement(deps.db, id);
  if (!row) throw notFound('This disbursement does not exist.');
  if (row.status !== 'PENDING') throw conflict(say.notPending);
  return row;
}

/** PATCH /api/admin/disbursement/{id}: an admin's Complete, Cancel or Mark failed; only from PENDING, once. */
export function updateStatus(deps: Deps, id: number, status: Ending) {
  pendingDisbursement(deps, id);
  return { disbursement: finish(deps, id, status) };
}

const callbackStatus: Record<CallbackAction, Ending> = {
  markComplete: 'COMPLETE',
  markCanceled: 'CANCELED',
  markFailed: 'FAILED',
};

const callbackMessage: Record<CallbackAction, (id: number, charityName: string) => string> = {
  markComplete: (id, charityName) => `Disbursement ${id} to ${charityName} is complete.`,
  markCanceled: (id, charityName) => `Disbursement ${id} to ${charityName} was canceled; nothing was paid.`,
  markFailed: (id, charityName) =>
    `Disbursement ${id} to ${charityName} failed; nothing was paid. The amount is still outstanding.`,
};

/** PATCH /api/admin/disbursement/{id}/callback: the giving site's return link, with its single-use secret. */
export function callback(deps: Deps, id: number, action: CallbackAction, secret: string) {
  const row = pendingDisbursement(deps, id);
  if (!row.callbackSecretHash || !safeEqual(sha256(secret), row.callbackSecretHash)) {
    throw invalid(say.wrongSecret);
  }
  const disbursement = finish(deps, id, callbackStatus[action]);
  return { disbursement, message: callbackMessage[action](id, row.charityName) };
}

/**
 * The moment a manual disbursement's date paid stands for. A date alone is a day of the site's
 * calendar (the form's date input, the ledger's "Last payment"): it is stored as that day's first
 * moment in the site's zone, so it shows as that very day to everyone, and a day after the site's
 * today is in the future, wherever the admin is. A date and time is the moment it says.
 */
function paidAt(deps: Deps, finalizedAt: string): Date {
  if (finalizedAt.includes('T')) {
    const moment = new Date(finalizedAt);
    if (Number.isNaN(moment.getTime())) throw new FormError([{ field: 'finalizedAt', message: say.finalizedAt }]);
    return moment;
  }
  if (finalizedAt > siteCalendarDate(Date.now(), deps.config.timeZone)) {
    throw new FormError([{ field: 'finalizedAt', message: say.finalizedAtFuture }]);
  }
  return startOfSiteDay(finalizedAt, deps.config.timeZone);
}

/**
 * POST /api/admin/disbursements: money already paid some other way, recorded as COMPLETE (and in
 * the journal) in one IMMEDIATE transaction that checks it first: not while a disbursement of the
 * charity is pending, and not over what is outstanding unless the admin confirmed it
 * (`overrideOutstanding`), which is recorded with what was outstanding then. The charity's name
 * is its record's, when the directory has it.
 */
export function recordManual(deps: Deps, session: Session, input: z.output<typeof manualDisbursementSchema>) {
  const finalizedAt = paidAt(deps, input.finalizedAt);
  const row = deps.db.transaction(
    (tx) => {
      const balance = balanceOf(tx, input.ein);
      if (balance.hasPending) throw invalid(say.pendingDisbursement, 'PENDING_DISBURSEMENT');
      const outstandingAmountCents = Math.max(balance.outstandingCents, 0);
      const over = input.amountCents > outstandingAmountCents;
      if (over && !input.overrideOutstanding) {
        throw invalid(say.manualOverOutstanding(outstandingAmountCents), 'INCORRECT_DISBURSEMENT_AMOUNT', {
          outstandingAmountCents,
        });
      }
      const inserted = queries.insertDisbursement(tx, {
        ein: input.ein,
        charityName: findDirectoryCharity(tx, input.ein)?.name ?? input.charityName,
        status: 'COMPLETE',
        source: 'MANUAL',
        amountCents: input.amountCents,
        notes: input.notes.trim() || null,
        overriddenOutstandingCents: over ? outstandingAmountCents : null,
        createdBy: session.user.id,
        finalizedAt,
      });
      journal.recordDisbursement(deps.db, inserted, finalizedAt);
      return inserted;
    },
    { behavior: 'immediate' },
  );
  deps.logger.info(
    {
      disbursementId: row.id,
      ein: row.ein,
      amountCents: row.amountCents,
      overridden: row.overriddenOutstandingCents !== null,
    },
    'manual disbursement',
  );
  return { disbursement: present(row) };
}

/** The demo content's payout (server/demo): half of what a charity is owed, paid by hand. */
export function recordDemoPayout(db: Db, ein: string, at: Date) {
  const balance = balanceOf(db, ein);
  const amountCents = Math.floor(balance.outstandingCents / 2);
  if (amountCents <= 0) return;
  const row = queries.insertDisbursement(db, {
    ein,
    charityName: balance.charityName,
    status: 'COMPLETE',
    source: 'MANUAL',
    amountCents,
    notes: 'Demo: paid by bank transfer',
    createdAt: at,
    updatedAt: at,
    finalizedAt: at,
  });
  journal.recordDisbursement(db, row, at);
}
