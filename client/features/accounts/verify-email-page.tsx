import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { okSchema } from '../../../shared/api';
import { userSchema, verifyEmailSchema } from '../../../shared/schemas/accounts';
import { ApiError, apiRequest, errorMessage } from '../../api/http';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { useZodForm } from '../../ui/use-zod-form';
import { userQueryOptions } from '../../lib/session-api';
import { fromState } from '../../lib/return-to';
import { useUser } from '../../lib/session-store';
import { usePageTitle } from '../../lib/site';

/** Email verification (spec part 1 section 2): the code form, resend states, then back to `from`. */
export function VerifyEmailPage() {
  usePageTitle('Verify your email');
  const user = useUser();
  if (!user) return null;
  return (
    <div className="page narrow auth-page">
      <div className="card auth-card stack">
        {user.isEmailVerified ? <Verified /> : <VerifyForm email={user.email} />}
      </div>
    </div>
  );
}

function Verified() {
  const from = fromState(useLocation());
  return (
    <>
      <h1>Email verified!</h1>
      <p>You can now create artists, fundraisers and more.</p>
      <div className="actions">
        <Link className="button button-primary" to={from ?? '/artists/new'}>
          {from ? 'Continue' : 'Create an artist'}
        </Link>
        <Link className="button button-secondary" to="/user">
          Account details
        </Link>
      </div>
    </>
  );
}

function VerifyForm({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const from = fromState(useLocation());
  const form = useZodForm(verifyEmailSchema, { verificationCode: '' });
  const verify = useMutation({
    mutationFn: (verificationCode: string) =>
      apiRequest('/api/verify-email', userSchema, { method: 'POST', json: { verificationCode } }),
    onSuccess: async () => {
      // Spec: after success the user is reloaded and the app returns to the saved route.
      await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
      if (from) navigate(from, { replace: true });
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
      <h1>Verify your email</h1>
      <p>
        We sent a 6-digit verification code to <strong>{email}</strong>. You need it to create artists, fundraisers and
        more.
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
        <button type="submit" className="button button-primary button-block" disabled={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify email'}
        </button>
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
