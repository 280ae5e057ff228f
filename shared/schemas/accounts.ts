import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { emailField, exactText, newPasswordField, requiredText } from './text';

// Payloads and responses of the account calls (spec part 1 sections 3, 5 and 7; DESIGN.md section 4).

export const userSchema = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  isAdmin: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: messages.required('Password') })
    .min(1, messages.required('Password'))
    .max(limits.passwordMax, messages.passwordMax),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  firstName: requiredText('First name', limits.firstName),
  lastName: requiredText('Last name', limits.lastName),
  email: emailField,
  password: newPasswordField,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The confirm field the forms carry; its message lands on confirmPassword (part 1 section 5). */
const confirmPasswordField = { confirmPassword: z.string() };
const passwordsMatch = (values: { password: string; confirmPassword: string }) =>
  values.password === values.confirmPassword;
const passwordsMatchError = { message: messages.passwordsDontMatch, path: ['confirmPassword'] };

export const signUpFormSchema = registerSchema.extend(confirmPasswordField).refine(passwordsMatch, passwordsMatchError);
export type SignUpFormValues = z.input<typeof signUpFormSchema>;

export const newPasswordSchema = z.object({ password: newPasswordField });
export const newPasswordFormSchema = newPasswordSchema
  .extend(confirmPasswordField)
  .refine(passwordsMatch, passwordsMatchError);
export type NewPasswordFormValues = z.input<typeof newPasswordFormSchema>;

export const verifyEmailSchema = z.object({
  verificationCode: exactText('Verification code', limits.verificationCode),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

export const passwordResetEmailSchema = z.object({ email: emailField });
export type PasswordResetEmailInput = z.infer<typeof passwordResetEmailSchema>;

export const resetTokenField = z.string().max(limits.resetToken, messages.max('Reset token', limits.resetToken));

export const passwordResetSchema = z.object({
  password: newPasswordField,
  resetToken: resetTokenField.optional(),
});
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

export const tokenUserSchema = z.object({ email: z.string() });

export const mailingListSignupSchema = z.object({ email: emailField });
