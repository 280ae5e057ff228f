import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { emailField, exactText, newPasswordField, requiredText } from './text';

// What the account calls are sent (spec part 1 sections 3, 5 and 7; DESIGN.md section 4); what
// they answer is in answers/accounts.ts.

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

/**
 * The confirm field the forms carry; its messages land on confirmPassword (part 1 section 5). It is
 * required like the others, so an empty form flags it too; whether the two match is checked as
 * soon as both are typed, whatever else is still missing (zod would otherwise wait for the rest).
 */
const confirmPasswordField = {
  confirmPassword: z.string().min(1, messages.required('Confirm password')),
};
const passwordsMatch = (values: { password: string; confirmPassword: string }) =>
  values.password === values.confirmPassword;
const passwordsMatchError = {
  message: messages.passwordsDontMatch,
  path: ['confirmPassword'],
  when: ({ value }: { value: unknown }) => {
    const { password, confirmPassword } = (value ?? {}) as Partial<Record<string, unknown>>;
    return typeof password === 'string' && typeof confirmPassword === 'string' && confirmPassword !== '';
  },
};

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

export const mailingListSignupSchema = z.object({ email: emailField });

// The account page (issue 9): name, email address and deleting the account.

export const updateProfileSchema = z.object({
  firstName: requiredText('First name', limits.firstName),
  lastName: requiredText('Last name', limits.lastName),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** The current password, asked again before something that cannot be taken back. */
const currentPasswordField = z
  .string({ error: messages.required('Password') })
  .min(1, messages.required('Password'))
  .max(limits.passwordMax, messages.passwordMax);

/** A new address for the account; it takes effect once the code sent to it is entered. */
export const changeEmailSchema = z.object({ email: emailField, password: currentPasswordField });
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

export const deleteAccountSchema = z.object({ password: currentPasswordField });
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
