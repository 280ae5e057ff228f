import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailChanges, emailVerificationCodes, passwordResetTokens, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.email, email)).get();
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function insertUser(db: Db, values: typeof users.$inferInsert): UserRow {
  return db.insert(users).values(values).returning().get();
}

export function updateUser(db: Db, id: number, values: Partial<typeof users.$inferInsert>): UserRow {
  return db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning()
    .get();
}

export function findVerificationCode(db: Db, userId: number) {
  return db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.userId, userId)).get();
}

export function replaceVerificationCode(db: Db, userId: number, codeHash: string, expiresAt: Date, sentAt: Date) {
  db.insert(emailVerificationCodes)
    .values({ userId, codeHash, expiresAt, sentAt, failedAttempts: 0 })
    .onConflictDoUpdate({
      target: emailVerificationCodes.userId,
      set: { codeHash, expiresAt, sentAt, failedAttempts: 0 },
    })
    .run();
}

export function countFailedCodeAttempt(db: Db, userId: number, failedAttempts: number) {
  db.update(emailVerificationCodes).set({ failedAttempts }).where(eq(emailVerificationCodes.userId, userId)).run();
}

export function deleteVerificationCode(db: Db, userId: number) {
  db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.userId, userId)).run();
}

export function insertResetToken(db: Db, values: typeof passwordResetTokens.$inferInsert) {
  db.insert(passwordResetTokens).values(values).run();
}

/** An unused, unexpired reset token with its user. */
export function findUsableResetToken(db: Db, tokenHash: string, now: Date) {
  return db
    .select({ token: passwordResetTokens, user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .get();
}

/**
 * Spends a usable token in one statement; true only for the one caller that spent it, however
 * many requests race with the same link.
 */
export function spendResetToken(db: Db, tokenHash: string, now: Date): boolean {
  const result = db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .run();
  return result.changes === 1;
}

/** Marks every outstanding reset token of a user used: one reset spends them all. */
export function spendResetTokens(db: Db, userId: number, now: Date) {
  db.update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .run();
}

export function findEmailChange(db: Db, userId: number) {
  return db.select().from(emailChanges).where(eq(emailChanges.userId, userId)).get();
}

export function replaceEmailChange(db: Db, values: typeof emailChanges.$inferInsert) {
  db.insert(emailChanges)
    .values(values)
    .onConflictDoUpdate({ target: emailChanges.userId, set: { ...values, failedAttempts: 0 } })
    .run();
}

export function countFailedEmailChangeAttempt(db: Db, userId: number, failedAttempts: number) {
  db.update(emailChanges).set({ failedAttempts }).where(eq(emailChanges.userId, userId)).run();
}

export function deleteEmailChange(db: Db, userId: number) {
  db.delete(emailChanges).where(eq(emailChanges.userId, userId)).run();
}

/** Live admin accounts other than this one (an installation must keep at least one admin). */
export function countOtherAdmins(db: Db, userId: number): number {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), isNull(users.deletedAt), ne(users.id, userId)))
    .all().length;
}

/**
 * Deletes an account but keeps its row, which its fundraisers and donations refer to: every
 * personal detail is scrubbed (name, address, password), its codes and tokens go, and
 * the email becomes a placeholder no one can type, so the address is free to sign up again.
 */
export function scrubUser(db: Db, userId: number, passwordHash: string, at: Date) {
  db.update(users)
    .set({
      email: `deleted-${userId}@deleted.invalid`,
      firstName: null,
      lastName: null,
      passwordHash,
      isAdmin: false,
      isEmailVerified: false,
      deletedAt: at,
      updatedAt: at,
    })
    .where(eq(users.id, userId))
    .run();
  db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.userId, userId)).run();
  db.delete(emailChanges).where(eq(emailChanges.userId, userId)).run();
  db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).run();
}
