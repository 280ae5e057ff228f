import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailVerificationCodes, passwordResetTokens, users } from '../../db/schema';

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
