import { useMutation } from '@tanstack/react-query';
import { passwordResetEmailSchema } from '../../../shared/schemas/accounts';
import { apiRequest } from '../../api/http';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { useZodForm } from '../../ui/use-zod-form';
import { NetworkButton } from '../../ui/needs-network';

/** The forgot-password view: an email, Cancel and Send email (spec part 1 section 2). */
export function ForgotPasswordForm({ onCancel, defaultEmail = '' }: { onCancel: () => void; defaultEmail?: string }) {
  const form = useZodForm(passwordResetEmailSchema, { email: defaultEmail });
  const request = useMutation({
    mutationFn: (email: string) => apiRequest('/api/password-reset-email', 'ok', { method: 'POST', json: { email } }),
  });
  if (request.isSuccess) {
    return (
      <div className="stack">
        <Alert tone="success" title="Email sent.">
          Check your email for the password reset instructions.
        </Alert>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Back to log in
        </button>
      </div>
    );
  }
  const failure =
    request.error instanceof ApiError && request.error.code === 'RATE_LIMITED'
      ? `Reset password request failed! ${request.error.message}`
      : 'Reset password request failed!';
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit(({ email }) => request.mutate(email))}>
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      {request.isError && <Alert tone="error">{failure}</Alert>}
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <div className="actions actions-end">
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Cancel
        </button>
        <NetworkButton
          action="send the reset link"
          type="submit"
          className="button button-primary"
          disabled={request.isPending}
        >
          {request.isPending ? 'Sending...' : 'Send email'}
        </NetworkButton>
      </div>
    </form>
  );
}
