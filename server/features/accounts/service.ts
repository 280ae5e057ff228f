import { SqliteError } from 'better-sqlite3';
import type { RegisterInput, User } from '../../../shared/schemas/accounts';
import { serverMessages } from '../../../shared/api';
import type { Deps, Session } from '../../http/context';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
} from '../../http/errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../infra/security/passwords';
import { deleteOtherSessions } from '../../infra/security/session-store';
import { clearAttempts, isThrottled, recordAttempt, type ThrottleRule } from '../../infra/security/throttle';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../infra/security/tokens';
import { passwordResetEmail, verificationCodeEmail } from './emails';
import * as queries from './queries';
import type { UserRow } from './queries';

// Account rules of spec part 1 sections 4, 7, 8 with the decisions of DESIGN.md section 4.

const MINUTE = 60 * 1000;
const CODE_TTL_MS = 30 * MINUTE;
const CODE_RESEND_INTERVAL_MS = MINUTE;
const CODE_MAX_FAILED_ATTEMPTS = 5;
const RESET_TOKEN_TTL_MS = 60 * MINUTE;

const loginFailuresByEmail: ThrottleRule = { bucket: 'login-email', limit: 10, windowMs: 15 * MINUTE };
const loginFailuresByIp: ThrottleRule = { bucket: 'login-ip', limit: 10, windowMs: 15 * MINUTE };
/** Caps guessing across resent codes too: each resend resets the 5-try counter of one code. */
const codeFailuresByUser: ThrottleRule = { bucket: 'verify-code-user', limit: 20, windowMs: 60 * MINUTE };
const resetRequestsByIp: ThrottleRule = { bucket: 'reset-request-ip', limit: 10, windowMs: 15 * MINUTE };
/** Keeps anyone from flooding a stranger's inbox; over the limit we quietly send nothing. */
const resetEmailsByAddress: ThrottleRule = { bucket: 'reset-email-address', limit: 3, windowMs: 15 * MINUTE };

export function toPublicUser(row: UserRow): User {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    isEmailVerified: row.isEmailVerified,
    isAdmin: row.isAdmin,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof SqliteError && error.code.startsWith('SQLITE_CONSTRAINT');
}

export async function register(deps: Deps, input: RegisterInput): Promise<UserRow> {
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
  if (isThrottled(deps.db, loginFailuresByEmail, input.email) || isThrottled(deps.db, loginFailuresByIp, clientIp)) {
    throw tooManyRequests(serverMessages.rateLimited);
  }
  const user = queries.findUserByEmail(deps.db, input.email);
  const passwordMatches = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!user || !passwordMatches) {
    recordAttempt(deps.db, loginFailuresByEmail, input.email);
    recordAttempt(deps.db, loginFailuresByIp, clientIp);
    throw unauthorized(serverMessages.incorrectLogin);
  }
  clearAttempts(deps.db, loginFailuresByEmail, input.email);
  return user;
}

/** Emails a new code, and only once it is sent replaces the old one, so a failed send costs nothing. */
async function issueVerificationCode(deps: Deps, user: UserRow, now = Date.now()) {
  const code = randomDigits(6);
  await deps.mailer.send(verificationCodeEmail(deps.config, user.email, user.firstName, code));
  queries.replaceVerificationCode(deps.db, user.id, sha256(code), new Date(now + CODE_TTL_MS), new Date(now));
}

export async function resendVerificationCode(deps: Deps, user: UserRow, now = Date.now()) {
  if (user.isEmailVerified) throw badRequest(serverMessages.alreadyVerified, 'EMAIL_ALREADY_VERIFIED');
  const current = queries.findVerificationCode(deps.db, user.id);
  if (current && now - current.sentAt.getTime() < CODE_RESEND_INTERVAL_MS) {
    throw tooManyRequests(serverMessages.resendTooSoon);
  }
  try {
    await issueVerificationCode(deps, user, now);
  } catch (error) {
    deps.logger.error({ err: error, userId: user.id }, 'could not email the verification code');
    throw serviceUnavailable(serverMessages.emailFailed);
  }
}

export function verifyEmail(deps: Deps, user: UserRow, code: string, now = Date.now()): UserRow {
  if (user.isEmailVerified) throw badRequest(serverMessages.alreadyVerified, 'EMAIL_ALREADY_VERIFIED');
  if (isThrottled(deps.db, codeFailuresByUser, String(user.id), now)) {
    throw tooManyRequests(serverMessages.rateLimited);
  }
  const current = queries.findVerificationCode(deps.db, user.id);
  if (!current || current.expiresAt.getTime() <= now) {
    throw badRequest(serverMessages.expiredCode, 'INVALID_VERIFICATION_CODE');
  }
  if (current.failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
    throw new AppError(429, 'VERIFICATION_ATTEMPTS_EXCEEDED', serverMessages.attemptsExceeded);
  }
  if (!safeEqual(current.codeHash, sha256(code))) {
    const failedAttempts = current.failedAttempts + 1;
    queries.countFailedCodeAttempt(deps.db, user.id, failedAttempts);
    recordAttempt(deps.db, codeFailuresByUser, String(user.id), now);
    if (failedAttempts >= CODE_MAX_FAILED_ATTEMPTS) {
      throw new AppError(429, 'VERIFICATION_ATTEMPTS_EXCEEDED', serverMessages.attemptsExceeded);
    }
    throw badRequest(serverMessages.invalidCode, 'INVALID_VERIFICATION_CODE');
  }
  queries.deleteVerificationCode(deps.db, user.id);
  return queries.updateUser(deps.db, user.id, { isEmailVerified: true });
}

/**
 * Always succeeds from the caller's point of view (no account enumeration). `siteUrl` is
 * PUBLIC_URL when set; production requires it, so a forged Host header cannot redirect the
 * emailed link to another site.
 */
export async function requestPasswordReset(deps: Deps, email: string, clientIp: string, siteUrl: string) {
  if (isThrottled(deps.db, resetRequestsByIp, clientIp)) throw tooManyRequests(serverMessages.rateLimited);
  recordAttempt(deps.db, resetRequestsByIp, clientIp);
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
    // Answering differently here would tell a stranger the account exists; the failure is logged
    // for the operator and the user can ask again.
    deps.logger.error({ err: error, userId: user.id }, 'could not email the password reset link');
  }
}

export function findResetTokenUser(deps: Deps, token: string) {
  const found = queries.findUsableResetToken(deps.db, sha256(token), new Date());
  if (!found) throw notFound(serverMessages.invalidResetToken);
  return { email: found.user.email };
}

export async function resetPassword(deps: Deps, token: string, password: string) {
  const found = queries.findUsableResetToken(deps.db, sha256(token), new Date());
  if (!found) throw notFound(serverMessages.invalidResetToken);
  const passwordHash = await hashPassword(password);
  const now = new Date();
  deps.db.transaction((tx) => {
    // The emailed link proves the address, so a reset also verifies it.
    queries.updateUser(tx, found.user.id, { passwordHash, isEmailVerified: true });
    queries.spendResetTokens(tx, found.user.id, now);
    deleteOtherSessions(tx, found.user.id);
  });
  clearAttempts(deps.db, loginFailuresByEmail, found.user.email);
}

export async function changePassword(deps: Deps, session: Session, password: string) {
  const passwordHash = await hashPassword(password);
  deps.db.transaction((tx) => {
    queries.updateUser(tx, session.user.id, { passwordHash });
    // Anyone else holding a session (a stolen cookie, a shared computer) is signed out.
    deleteOtherSessions(tx, session.user.id, session.idHash);
  });
}

/** Creates that admin or promotes the existing account; idempotent (start-up and CLI). */
export async function ensureAdmin(deps: Pick<Deps, 'db'>, email: string, password: string) {
  const normalised = email.trim().toLowerCase();
  const existing = queries.findUserByEmail(deps.db, normalised);
  if (existing) {
    if (!existing.isAdmin || !existing.isEmailVerified) {
      queries.updateUser(deps.db, existing.id, { isAdmin: true, isEmailVerified: true });
    }
    return { created: false as const, promoted: !existing.isAdmin };
  }
  queries.insertUser(deps.db, {
    email: normalised,
    passwordHash: await hashPassword(password),
    firstName: 'Admin',
    lastName: null,
    isAdmin: true,
    isEmailVerified: true,
  });
  return { created: true as const, promoted: false };
}
