import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';

// Fields that several account forms ask for alike: the name (sign-up, the account page) and a
// 6-digit code (verifying the email, confirming a new address). Each takes its form's `register`
// and errors, whatever else that form holds.

type FieldsOf<TName extends string> = {
  register: (name: TName) => UseFormRegisterReturn;
  errors: Partial<Record<TName, { message?: string }>>;
};

/** First and last name side by side, with their autocomplete hints. */
export function NameFields({ register, errors }: FieldsOf<'firstName' | 'lastName'>) {
  return (
    <div className="form-row">
      <FormField
        label="First name"
        autoComplete="given-name"
        error={errors.firstName?.message}
        {...register('firstName')}
      />
      <FormField
        label="Last name"
        autoComplete="family-name"
        error={errors.lastName?.message}
        {...register('lastName')}
      />
    </div>
  );
}

/** The emailed 6-digit code: numeric keyboard on phones, and the code offered from the message. */
export function VerificationCodeField({ register, errors }: FieldsOf<'verificationCode'>) {
  return (
    <FormField
      label="Verification code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      className="code-field"
      error={errors.verificationCode?.message}
      {...register('verificationCode')}
    />
  );
}
