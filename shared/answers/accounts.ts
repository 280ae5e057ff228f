import * as z from 'zod/mini';

// What the account calls answer (spec part 1 sections 3 and 7; DESIGN.md section 4).

export const userSchema = z.object({
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  email: z.string(),
  isEmailVerified: z.boolean(),
  isAdmin: z.optional(z.boolean()),
});
export type User = z.infer<typeof userSchema>;

export const tokenUserSchema = z.object({ email: z.string() });

/** The change waiting for its code, if any. */
export const emailChangeSchema = z.object({
  pending: z.nullable(z.object({ newEmail: z.string(), expiresAt: z.string() })),
});
export type EmailChange = z.infer<typeof emailChangeSchema>;
