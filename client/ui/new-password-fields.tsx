import type { UseFormRegisterReturn } from 'react-hook-form';
import { messages } from '../../shared/messages';
import { FormField } from './form-field';

type NewPasswordFieldsProps = {
  passwordLabel: 'Password' | 'New password';
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  errors: { password?: string; confirmPassword?: string };
};

/** A new password with the rules as hint, and its confirmation (sign-up, account, reset). */
export function NewPasswordFields({ passwordLabel, password, confirmPassword, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <FormField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        hint={messages.passwordHint}
        error={errors.password}
        {...password}
      />
      <FormField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
        {...confirmPassword}
      />
    </>
  );
}
