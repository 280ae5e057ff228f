import { useMutation } from '@tanstack/react-query';
import { Link, useLoaderData, useNavigate } from 'react-router';
import { serverMessages } from '../../../shared/api';
import { newPasswordFormSchema } from '../../../shared/schemas/accounts';
import { apiRequest } from '../../api/http';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { NewPasswordFields } from '../../ui/new-password-fields';
import { useZodForm } from '../../ui/use-zod-form';
import { useFlash } from '../../lib/flash';
import { useLogin } from './use-login';
import { usePageTitle } from '../../lib/site';
import { useLoginDialog } from './login-dialog-store';
import type { resetTokenLoader } from './reset-token-loader';
import { NetworkButton } from '../../ui/needs-network';

export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const state = useLoaderData<typeof resetTokenLoader>();
  return (
    <div className="page narrow auth-page">
      <div className="card auth-card stack">
        <h1>Reset password</h1>
        {state.status === 'expired' ? <ExpiredLink /> : <ResetForm email={state.email} token={state.token} />}
      </div>
    </div>
  );
}

function ExpiredLink() {
  const showLogin = useLoginDialog((state) => state.show);
  const setView = useLoginDialog((state) => state.setView);
  return (
    <>
      <Alert tone="warning">
        The reset password link has expired or has already been used. Please request a new one. If the problem persists,{' '}
        <Link to="/contact">contact us</Link>.
      </Alert>
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            showLogin();
            setView('forgotpassword');
          }}
        >
          Send a new reset email
        </button>
      </div>
    </>
  );
}

/** After the reset the user is logged in with the new password; if that fails, off to login. */
function ResetForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const login = useLogin();
  const showFlash = useFlash((state) => state.show);
  const form = useZodForm(newPasswordFormSchema, { password: '', confirmPassword: '' });
  const reset = useMutation({
    mutationFn: (password: string) =>
      apiRequest('/api/password-reset', 'ok', { method: 'POST', json: { password, resetToken: token } }),
    onSuccess: (_ok, password) => {
      // Logged in again, the guest-only guard takes the user home; the message waits for them there.
      showFlash('Your password has been changed. You are logged in.', '/');
      login.mutate(
        { email, password },
        {
          onError: () => {
            showFlash('Your password has been changed. Please log in with your new password.', '/login');
            navigate('/login', { replace: true });
          },
        },
      );
    },
  });
  const failure =
    reset.error instanceof ApiError && reset.error.status === 404
      ? serverMessages.invalidResetToken
      : 'Something went wrong!';
  const { errors } = form.formState;
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit(({ password }) => reset.mutate(password))}>
      <p>
        Choose a new password for <strong>{email}</strong>.
      </p>
      {reset.isError && <Alert tone="error">{failure}</Alert>}
      <NewPasswordFields
        passwordLabel="New password"
        password={form.register('password')}
        confirmPassword={form.register('confirmPassword')}
        errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
      />
      <NetworkButton
        action="save your new password"
        type="submit"
        className="button button-primary button-block"
        disabled={reset.isPending || login.isPending}
      >
        {reset.isPending || login.isPending ? 'Saving...' : 'Save new password'}
      </NetworkButton>
    </form>
  );
}
