import { useMutation } from '@tanstack/react-query';
import { verifyEmailSchema } from '../../shared/schemas/accounts';
import { type User } from '../../shared/answers/accounts';
import { apiRequest, errorMessage } from '../api/http';
import { ApiError } from '../api/errors';
import { Alert } from './alert';
import { VerificationCodeField } from './account-fields';
import { useZodForm } from './use-zod-form';
import { NetworkButton } from './needs-network';

type VerifyEmailFormProps = {
  email: string;
  /** Gets the user the server answers with, now verified; the code field stays busy until it settles. */
  onVerified: (user: User) => void | Promise<void>;
  /** A row the submit button sits in (the wizard's actions); a full-width button without one. */
  actionsClassName?: string;
};

/**
 * Email verification (spec part 1 section 2, part 2 sections 4 and 8): the 6-digit code form and
 * 'Send a new code' with its states. Used by the verify-email page and the fundraiser wizard.
 */
export function VerifyEmailForm({ email, onVerified, actionsClassName }: VerifyEmailFormProps) {
  const form = useZodForm(verifyEmailSchema, { verificationCode: '' });
  const verify = useMutation({
    mutationFn: (verificationCode: string) =>
      apiRequest('/api/verify-email', 'user', { method: 'POST', json: { verificationCode } }),
    onSuccess: (verified) => onVerified(verified),
    onError: (error) => {
      form.setError('verificationCode', {
        type: 'server',
        message: error instanceof ApiError && error.code ? error.message : 'Something went wrong',
      });
    },
  });
  const resend = useMutation({
    mutationFn: () => apiRequest('/api/send-email-verification', 'ok', { method: 'POST' }),
  });
  const submit = (
    <NetworkButton
      action="verify your email"
      type="submit"
      className={`button button-primary${actionsClassName ? '' : ' button-block'}`}
      disabled={verify.isPending}
    >
      {verify.isPending ? 'Verifying...' : 'Verify email'}
    </NetworkButton>
  );

  return (
    <>
      <p>
        We sent a 6-digit verification code to <strong>{email}</strong>. You need it to create artists, fundraisers and
        more.
      </p>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(({ verificationCode }) => verify.mutate(verificationCode))}
      >
        <VerificationCodeField register={form.register} errors={form.formState.errors} />
        {actionsClassName ? <div className={actionsClassName}>{submit}</div> : submit}
      </form>
      <div className="resend">
        <p>Didn't get the email? Check your spam folder, or ask for a new code.</p>
        <NetworkButton
          action="get a new code"
          type="button"
          className="button button-secondary"
          onClick={() => resend.mutate()}
          disabled={resend.isPending}
        >
          Send a new code
        </NetworkButton>
        <div aria-live="polite">
          {resend.isPending && <p>Sending email...</p>}
          {resend.isSuccess && <Alert tone="success">Verification code sent! Please check your inbox</Alert>}
          {resend.isError && <Alert tone="error">{errorMessage(resend.error, 'Something went wrong')}</Alert>}
        </div>
      </div>
    </>
  );
}
