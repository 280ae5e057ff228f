import { SqliteError } from 'better-sqlite3';
import type { ChangeEmailInput, RegisterInput, UpdateProfileInput } from '../../../shared/schemas/accounts';
import type { EmailChange, User } from '../../../shared/answers/accounts';
import { serverMessages } from '../../../shared/api';
import { messages } from '../../../shared/messages';
import type { Db } from '../../db/client';
import type { Deps, Session } from '../../deps';
import { conflict, FormError, invalid, notFound, rateLimited, unauthenticated, unavailable } from '../../errors';
import { isCommonPassword } from '../../infra/security/common-passwords';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../infra/security/passwords';
import { deleteOtherSessions } from '../../infra/security/session-store';
import {
  clearAttempts,
  forgetAttempt,
  isThrottled,
  recordAttempt,
  retryAfterMs,
  takeAttempt,
  type ThrottleRule,
} from '../../infra/security/throttle';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../infra/security/tokens';
import { removeOwnerContent } from '../fundraisers/service';
import {
  accountDeletedEmail,
  emailChangeCodeEmail,
  emailChangedNotice,
  passwordResetEmail,
  verificationCodeEmail,
} from './emails';
import * as queries from './queries';
import type { UserRow } from './queries';

// Account rules of spec part 1 sections 4, 7, 8 with the decisions of DESIGN.md section 4.

const MINUTE = 60 * 1000;
const CODE_TTL_MS = 30 * MINUTE;
const CODE_RESEND_INTERVAL_MS = MINUTE;
const CODE_MAX_FAILED_ATTEMPTS = 5;
const RESET_TOKEN_TTL_MS = 60 * MINUTE;

/** Wrong passwords from one address, whatever the accounts: one guesser, however many accounts. */
const loginFailuresByIp: ThrottleRule = { bucket: 'login-ip', limit: 10, windowMs: 15 * MINUTE };
/**
 * Wrong passwords at one account, from anywhere. The limit stops only the addresses that took part
 * (loginFailuresHere): an address that has not failed for the account still gets its password
 * checked, so guesses from elsewhere cannot lock the owner out at home (issue 22), while each
 * guessing address gets one try at the account and no more while it is over.
 */
const loginFailuresByEmail: ThrottleRule = { bucket: 'login-email', limit: 10, windowMs: 15 * MINUTE };
/** Whether this address failed for this account (key: email and address): then the account's limit holds it. */
const loginFailuresHere: ThrottleRule = { bucket: 'login-email-ip', limit: 1, windowMs: 15 * MINUTE };
/**
 * The same failures (the same bucket) over an hour: past 50, an address that failed for the
 * account waits for the hour, not only the quarter. Like the quarter's limit it holds only
 * addresses that took part (issue 22: a correct password from an address that has not failed for
 * the account gets in), so an attack from many addresses never locks the owner out; each of its
 * addresses gets one guess at the account, and the per-address limit caps what each can try.
 */
const loginFailuresByAccount: ThrottleRule = { bucket: 'login-email', limit: 50, windowMs: 60 * MINUTE };
/** Caps guessing across resent codes too: each resend resets the 5-try counter of one code. */
const codeFailuresByUser: ThrottleRule = { bucket: 'verify-code-user', limit: 20, windowMs: 60 * MINUTE };
const resetRequestsByIp: ThrottleRule = { bucket: 'reset-request-ip', limit: 10, windowMs: 15 * MINUTE };
/** Keeps anyone from flooding a stranger's inbox; over the limit we quietly send nothing. */
const resetEmailsByAddress: ThrottleRule = { bucket: 'reset-email-address', limit: 3, windowMs: 15 * MINUTE };
/** Someone may sign up with a stranger's address; that address gets a few codes a day at most. */
const codeEmailsByUser: ThrottleRule = { bucket: 'verify-email-user', limit: 10, windowMs: 24 * 60 * MINUTE };
const signupsByIp: ThrottleRule = { bucket: 'register-ip', limit: 10, windowMs: 60 * MINUTE };
/** Asking for the password again (email change, account deletion) must not become a guessing game. */
const passwordChecksByUser: ThrottleRule = { bucket: 'reauth-user', limit: 10, windowMs: 15 * MINUTE };

export function toPublicUser(row: UserRow): User {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    isEmailVerified: row.isEmailVerified,
    isAdmin: row.isAdmin,
  };
}

/** "First Last" as the account gives it, or null when it gives neither. */
export function fullName(user: Pick<UserRow, 'firstName' | 'lastName'>): string | null {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return name || null;
}

/**
 * The name on the account that has proven it holds `email`, for a year-end statement sent to that
 * address (issue 26). An unverified account's name is not asked: anyone may sign up with an
 * address that is not theirs, and must not put their name on its owner's tax statement.
 */
export function verifiedAccountName(db: Db, email: string): string | null {
  const user = queries.findUserByEmail(db, email.toLowerCase());
  return user && user.isEmailVerified && !user.deletedAt ? fullName(user) : null;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof SqliteError && error.code.startsWith('SQLITE_CONSTRAINT');
}

/**
 * A new password must not be one attackers try first (issue 9). The list is too big for the
 * browser, so this check is the server's; the form shows its message on the password field.
 */
export function refuseCommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password)) throw new FormError([{ field, message: messages.passwordCommon }]);
}

export async function register(deps: Deps, input: RegisterInput, clientIp: string): Promise<UserRow> {
  refuseCommonPassword(input.password);
  if (takeAttempt(deps.db, signupsByIp, clientIp) === null) throw rateLimited(serverMessages.rateLimited);
  if (queries.findUserByEmail(deps.db, input.email)) throw conflict(serverMessages.duplicateUser);
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    user = queries.insertUser(deps.db, {
      email: input.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
    });
  } catch (error) {
    // Two sign-ups with one address racing past the check above.
    if (isUniqueViolation(error)) throw conflict(serverMessages.duplicateUser);
    throw error;
  }
  try {
    await issueVerificationCode(deps, user);
  } catch (error) {
    // The account exists and the session starts; the verify page offers to resend the code.
    deps.logger.error({ err: error, userId: user.id }, 'could not email the verification code');
  }
  return user;
}

export async function login(deps: Deps, input: { email: string; password: string }, clientIp: string) {
  const { db } = deps;
  const account = input.email;
  const here = `${input.email} ${clientIp}`;
  // Each attempt is counted before the (slow) password check and taken back if it succeeds, so a
  // burst of parallel guesses is limited like a sequence of them: checking and counting are one
  // synchronous step, so the second of a burst already finds the first counted as this address's.
  const failedHere = isThrottled(db, loginFailuresHere, here);
  const wait = Math.max(
    retryAfterMs(db, loginFailuresByIp, clientIp),
    failedHere
      ? Math.max(retryAfterMs(db, loginFailuresByEmail, account), retryAfterMs(db, loginFailuresByAccount, account))
      : 0,
  );
  if (wait > 0) throw rateLimited(serverMessages.rateLimited, 'RATE_LIMITED', wait);
  const attempts = [
    recordAttempt(db, loginFailuresByIp, clientIp),
    // Counted by loginFailuresByAccount too: the same bucket.
    recordAttempt(db, loginFailuresByEmail, account),
    recordAttempt(db, loginFailuresHere, here),
  ];
  const user = queries.findUserByEmail(db, input.email);
  const passwordMatches = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!user || !passwordMatches) throw unauthenticated(serverMessages.incorrectLogin);
  for (const id of attempts) forgetAttempt(db, id);
  // This address knows the password: its earlier typos no longer hold it back. Guesses from
  // elsewhere still count against the account.
  clearAttempts(db, loginFailuresHere, here);
  return user;
}

/** Emails a new code, and only once it is sent replaces the old one, so a failed send costs nothing. */
async function issueVerificationCode(deps: Deps, user: UserRow, now = Date.now()) {
  recordAttempt(deps.db, codeEmailsByUser, String(user.id), now);
  const code = randomDigits(6);
  await deps.mailer.send(verificationCodeEmail(deps.config, user.email, user.firstName, code));
  queries.replaceVerificationCode(deps.db, user.id, sha256(code), new Date(now + CODE_TTL_MS), new Date(now));
}

export async function resendVerificationCode(deps: Deps, user: UserRow, now = Date.now()) {
  if (user.isEmailVerified) throw invalid(serverMessages.alreadyVerified, 'EMAIL_ALREADY_VERIFIED');
  const current = queries.findVerificationCode(deps.db, user.id);
  if (current && now - current.sentAt.getTime() < CODE_RESEND_INTERVAL_MS) {
    throw rateLimited(serverMessages.resendTooSoon);
  }
  if (isThrottled(deps.db, codeEmailsByUser, String(user.id), now)) {
    throw rateLimited(serverMessages.tooManyCodes);
  }
  try {
    await issueVerificationCode(deps, user, now);
  } catch (error) {
    deps.logger.error({ err: error, userId: user.id }, 'could not email the verification code');
    throw unavailable(serverMessages.emailFailed);
  }
}

export function verifyEmail(deps: Deps, user: UserRow, code: string, now = Date.now()): UserRow {
  if (user.isEmailVerified) throw invalid(serverMessages.alreadyVerified, 'EMAIL_ALREADY_VERIFIED');
  if (isThrottled(deps.db, codeFailuresByUser, String(user.id), now)) {
    throw rateLimited(serverMessages.rateLimited);
  }
  const current = queries.findVerificationCode(deps.db, user.id);
  if (!current || current.expiresAt.getTime() <= now) {
    throw invalid(serverMessages.expiredCode, 'INVALID_VERIFICATION_CODE');
  }
  if (current.failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
    throw rateLimited(serverMessages.attemptsExceeded, 'VERIFICATION_ATTEMPTS_EXCEEDED');
  }
  if (!safeEqual(current.codeHash, sha256(code))) {
    const failedAttempts = current.failedAttempts + 1;
    queries.countFailedCodeAttempt(deps.db, user.id, failedAttempts);
    recordAttempt(deps.db, codeFailuresByUser, String(user.id), now);
    if (failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
      throw rateLimited(serverMessages.attemptsExceeded, 'VERIFICATION_ATTEMPTS_EXCEEDED');
    }
    throw invalid(serverMessages.invalidCode, 'INVALID_VERIFICATION_CODE');
  }
  queries.deleteVerificationCode(deps.db, user.id);
  return queries.updateUser(deps.db, user.id, { isEmailVerified: true });
}

/**
 * Looks the same to the caller whether or not the account exists (no account enumeration): the
 * same answer, in the same time, because nothing about the account is looked at before answering.
 * Only the per-address throttle comes first, and it depends on the address alone.
 */
export function requestPasswordReset(deps: Deps, email: string, clientIp: string, siteUrl: string): void {
  if (takeAttempt(deps.db, resetRequestsByIp, clientIp) === null) throw rateLimited(serverMessages.rateLimited);
  deps.afterResponse(() => sendPasswordReset(deps, email, siteUrl));
}

async function sendPasswordReset(deps: Deps, email: string, siteUrl: string) {
  const user = queries.findUserByEmail(deps.db, email);
  if (!user || isThrottled(deps.db, resetEmailsByAddress, email)) return;
  recordAttempt(deps.db, resetEmailsByAddress, email);
  const token = randomToken();
  const now = Date.now();
  queries.insertResetToken(deps.db, {
    tokenHash: sha256(token),
    userId: user.id,
    expiresAt: new Date(now + RESET_TOKEN_TTL_MS),
  });
  try {
    await deps.mailer.send(passwordResetEmail(deps.config, user.email, `${siteUrl}/reset-password/${token}`));
  } catch (error) {
    // Logged for the operator; the user can ask again.
    deps.logger.error({ err: error, userId: user.id }, 'could not email the password reset link');
  }
}

export function findResetTokenUser(deps: Deps, token: string) {
  const found = queries.findUsableResetToken(deps.db, sha256(token), new Date());
  if (!found) throw notFound(serverMessages.invalidResetToken);
  return { email: found.user.email };
}

export async function resetPassword(deps: Deps, token: string, password: string) {
  refuseCommonPassword(password);
  const tokenHash = sha256(token);
  const found = queries.findUsableResetToken(deps.db, tokenHash, new Date());
  if (!found) throw notFound(serverMessages.invalidResetToken);
  const passwordHash = await hashPassword(password);
  const now = new Date();
  deps.db.transaction((tx) => {
    // Spent first, atomically: of several requests racing with one link, only one gets past here.
    if (!queries.spendResetToken(tx, tokenHash, now)) throw notFound(serverMessages.invalidResetToken);
    // The emailed link proves the address, so a reset also verifies it.
    queries.updateUser(tx, found.user.id, { passwordHash, isEmailVerified: true });
    queries.spendResetTokens(tx, found.user.id, now);
    deleteOtherSessions(tx, found.user.id);
  });
  // The guesses were at the old password; the owner, who proved the address, gets in at once.
  clearAttempts(deps.db, loginFailuresByEmail, found.user.email);
}

export async function changePassword(deps: Deps, session: Session, password: string) {
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  deps.db.transaction((tx) => {
    queries.updateUser(tx, session.user.id, { passwordHash });
    // Anyone else holding a session (a stolen cookie, a shared computer) is signed out.
    deleteOtherSessions(tx, session.user.id, session.idHash);
  });
}

/**
 * Creates that admin or promotes the existing account; idempotent (start-up and CLI). A verified
 * account keeps its password. An unverified one is taken over (new password, sessions ended):
 * anyone could have signed up with the operator's address without owning it.
 */
export async function ensureAdmin(deps: Pick<Deps, 'db'>, email: string, password: string) {
  const normalised = email.trim().toLowerCase();
  const existing = queries.findUserByEmail(deps.db, normalised);
  if (existing?.isEmailVerified) {
    if (!existing.isAdmin) queries.updateUser(deps.db, existing.id, { isAdmin: true });
    return { created: false as const, promoted: !existing.isAdmin, passwordSet: false };
  }
  // The password is only set below, so only there must it not be a common one.
  if (isCommonPassword(password)) throw new Error(`The admin's password is refused: ${messages.passwordCommon}`);
  if (existing) {
    const passwordHash = await hashPassword(password);
    deps.db.transaction((tx) => {
      queries.updateUser(tx, existing.id, { passwordHash, isAdmin: true, isEmailVerified: true });
      deleteOtherSessions(tx, existing.id);
    });
    return { created: false as const, promoted: true, passwordSet: true };
  }
  queries.insertUser(deps.db, {
    email: normalised,
    passwordHash: await hashPassword(password),
    firstName: 'Admin',
    lastName: null,
    isAdmin: true,
    isEmailVerified: true,
  });
  return { created: true as const, promoted: false, passwordSet: true };
}

// ---------------------------------------------------------------------------------------------
// The owners of an old catalogue's fundraisers (server/catalogue/import-legacy.ts). They take a
// Db, so they join the import's transaction.

/** The id of the account using this email, if any. */
export function accountIdByEmail(db: Db, email: string): number | undefined {
  return queries.findUserByEmail(db, email)?.id;
}

/**
 * A new account for an imported fundraiser's owner: unverified, with a password nobody knows,
 * which its owner claims with 'Forgot password?' (the emailed reset link proves the address, and
 * verifies it). `unusablePasswordHash` is made beforehand: hashing is slow and async.
 */
export function createImportedAccount(
  db: Db,
  owner: { email: string; firstName: string; lastName: string },
  unusablePasswordHash: string,
): number {
  return queries.insertUser(db, {
    email: owner.email,
    passwordHash: unusablePasswordHash,
    firstName: owner.firstName || null,
    lastName: owner.lastName || null,
  }).id;
}

// ---------------------------------------------------------------------------------------------
// The account page (issue 9): name, email address, deleting the account.

export function updateProfile(deps: Deps, session: Session, input: UpdateProfileInput): UserRow {
  return queries.updateUser(deps.db, session.user.id, { firstName: input.firstName, lastName: input.lastName });
}

export const accountMessages = {
  wrongPassword: 'That password is not correct.',
  sameEmail: 'This is already your email address.',
  emailTaken: 'Another account already uses this email address.',
  noEmailChange: 'There is no email change waiting. Please enter the new address again.',
  lastAdmin:
    "You are this site's only admin. Make another account an admin first (npm run cli -- create-admin), then delete this one.",
} as const;

/** The caller's own password, before a change that locks them out if someone else made it. */
async function confirmPassword(deps: Deps, session: Session, password: string) {
  const attempt = takeAttempt(deps.db, passwordChecksByUser, String(session.user.id));
  if (attempt === null) throw rateLimited(serverMessages.rateLimited);
  if (!(await verifyPassword(session.user.passwordHash, password))) {
    throw new FormError([{ field: 'password', message: accountMessages.wrongPassword }]);
  }
  forgetAttempt(deps.db, attempt);
}

/**
 * Starts a change of address: the new address gets a code, and the account keeps its old address
 * until the code is entered (confirmEmailChange), so a typo cannot lock anyone out and nobody can
 * take over an address they cannot read.
 */
export async function requestEmailChange(deps: Deps, session: Session, input: ChangeEmailInput, now = Date.now()) {
  await confirmPassword(deps, session, input.password);
  const user = session.user;
  if (input.email === user.email) throw new FormError([{ field: 'email', message: accountMessages.sameEmail }]);
  if (queries.findUserByEmail(deps.db, input.email)) {
    throw new FormError([{ field: 'email', message: accountMessages.emailTaken }]);
  }
  const current = queries.findEmailChange(deps.db, user.id);
  if (current && now - current.sentAt.getTime() < CODE_RESEND_INTERVAL_MS) {
    throw rateLimited(serverMessages.resendTooSoon);
  }
  if (takeAttempt(deps.db, codeEmailsByUser, String(user.id), now) === null) {
    throw rateLimited(serverMessages.tooManyCodes);
  }
  const code = randomDigits(6);
  try {
    await deps.mailer.send(emailChangeCodeEmail(deps.config, input.email, user.firstName, code));
  } catch (error) {
    deps.logger.error({ err: error, userId: user.id }, 'could not email the email change code');
    throw unavailable(serverMessages.emailFailed);
  }
  const expiresAt = new Date(now + CODE_TTL_MS);
  queries.replaceEmailChange(deps.db, {
    userId: user.id,
    newEmail: input.email,
    codeHash: sha256(code),
    expiresAt,
    sentAt: new Date(now),
  });
  return pendingEmailChange(deps, session, now);
}

export function pendingEmailChange(deps: Deps, session: Session, now = Date.now()): EmailChange {
  const change = queries.findEmailChange(deps.db, session.user.id);
  if (!change || change.expiresAt.getTime() <= now) return { pending: null };
  return { pending: { newEmail: change.newEmail, expiresAt: change.expiresAt.toISOString() } };
}

export function cancelEmailChange(deps: Deps, session: Session): EmailChange {
  queries.deleteEmailChange(deps.db, session.user.id);
  return { pending: null };
}

/** The code from the new address: the address changes (and counts as verified), the old one is told. */
export function confirmEmailChange(deps: Deps, session: Session, code: string, now = Date.now()): UserRow {
  const user = session.user;
  const change = queries.findEmailChange(deps.db, user.id);
  if (!change || change.expiresAt.getTime() <= now) {
    throw invalid(accountMessages.noEmailChange, 'INVALID_VERIFICATION_CODE');
  }
  if (change.failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
    throw rateLimited(serverMessages.attemptsExceeded, 'VERIFICATION_ATTEMPTS_EXCEEDED');
  }
  if (!safeEqual(change.codeHash, sha256(code))) {
    const failedAttempts = change.failedAttempts + 1;
    queries.countFailedEmailChangeAttempt(deps.db, user.id, failedAttempts);
    if (failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
      throw rateLimited(serverMessages.attemptsExceeded, 'VERIFICATION_ATTEMPTS_EXCEEDED');
    }
    throw invalid(serverMessages.invalidCode, 'INVALID_VERIFICATION_CODE');
  }
  let updated: UserRow;
  try {
    updated = deps.db.transaction((tx) => {
      queries.deleteEmailChange(tx, user.id);
      return queries.updateUser(tx, user.id, { email: change.newEmail, isEmailVerified: true });
    });
  } catch (error) {
    // Someone signed up with that address since the code was sent.
    if (isUniqueViolation(error)) throw conflict(accountMessages.emailTaken);
    throw error;
  }
  deps.afterResponse(() =>
    deps.mailer.send(emailChangedNotice(deps.config, user.email, change.newEmail)).catch((error: unknown) => {
      deps.logger.error({ err: error, userId: user.id }, 'could not tell the old address of an email change');
    }),
  );
  return updated;
}

/**
 * Deletes the caller's account (password confirmed): their artists and fundraisers are
 * soft-deleted, the account's personal data scrubbed and every session ended. Donations and
 * purchases are kept: the charities are owed the money, and buyers keep their music.
 */
export async function deleteAccount(deps: Deps, session: Session, password: string) {
  await confirmPassword(deps, session, password);
  const user = session.user;
  if (user.isAdmin && queries.countOtherAdmins(deps.db, user.id) === 0) throw conflict(accountMessages.lastAdmin);
  // Nobody knows this password: the account can never be logged into again.
  const unusable = await hashPassword(randomToken());
  deps.db.transaction((tx) => {
    const at = new Date();
    removeOwnerContent(tx, user.id, at);
    queries.scrubUser(tx, user.id, unusable, at);
    deleteOtherSessions(tx, user.id);
    // Their fundraisers are deleted: no grant to stream them as their owner may stay remembered.
    deps.streamGrants.clear();
  });
  deps.afterResponse(() =>
    deps.mailer.send(accountDeletedEmail(deps.config, user.email)).catch((error: unknown) => {
      deps.logger.error({ err: error, userId: user.id }, 'could not confirm an account deletion by email');
    }),
  );
}
