import { useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '../../../../shared/api';
import { type User, userSchema, verifyEmailSchema } from '../../../../shared/schemas/accounts';
import { ApiError, apiRequest, errorMessage } from '../../../api/http';
import { sessionKeys } from '../../../lib/session-api';
import { useSessionStore } from '../../../lib/session-store';
import { Alert } from '../../../ui/alert';
import { FormField } from '../../../ui/form-field';
import { useZodForm } from '../../../ui/use-zod-form';
import { useWizardStore } from './wizard-store';

/**
 * Email verification inside the wizard (spec part 2 sections 4 and 8): on success the verified
 * user the server answers with is stored, and the wizard, seeing a verified email, moves on by
 * itself.
 */
export function VerifyEmailStep({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const updateWizard = useWizardStore((state) => state.update);
  const form = useZodForm(verifyEmailSchema, { verificationCode: '' });
  const verify = useMutation({
    mutationFn: (verificationCode: string) =>
      apiRequest('/api/verify-email', userSchema, { method: 'POST', json: { verificationCode } }),
    onSuccess: (verified) => {
      // The step stays in the list, done, for the rest of this run.
      updateWizard(user.email, { hadVerify: true });
      // The answer is the user, now verified: stored as it is ("the user is reloaded", spec part 2
      // section 4), so no second request can fail after the code was accepted.
      queryClient.setQueryData(sessionKeys.user, verified);
      useSessionStore.getState().setUser(verified);
    },
    onError: (error) => {
      form.setError('verificationCode', {
        type: 'server',
        message: error instanceof ApiError && error.code ? error.message : 'Something went wrong',
      });
    },
  });
  const resend = useMutation({
    mutationFn: () => apiRequest('/api/send-email-verification', okSchema, { method: 'POST' }),
  });

  return (
    <>
      <h2>Verify your email</h2>
      <p>
        We sent a 6-digit verification code to <strong>{user.email}</strong>. You need it to create artists, fundraisers
        and more.
      </p>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(({ verificationCode }) => verify.mutate(verificationCode))}
      >
        <FormField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="code-field"
          error={form.formState.errors.verificationCode?.message}
          {...form.register('verificationCode')}
        />
        <div className="wizard-actions">
          <button type="submit" className="button button-primary" disabled={verify.isPending}>
            {verify.isPending ? 'Verifying...' : 'Verify email'}
          </button>
        </div>
      </form>
      <div className="resend">
        <p>Didn't get the email? Check your spam folder, or ask for a new code.</p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => resend.mutate()}
          disabled={resend.isPending}
        >
          Send a new code
        </button>
        <div aria-live="polite">
          {resend.isPending && <p>Sending email...</p>}
          {resend.isSuccess && <Alert tone="success">Verification code sent! Please check your inbox</Alert>}
          {resend.isError && <Alert tone="error">{errorMessage(resend.error, 'Something went wrong')}</Alert>}
        </div>
      </div>
    </>
  );
}
