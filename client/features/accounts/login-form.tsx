import { Link } from 'react-router';
import { serverMessages } from '../../../shared/api';
import { loginSchema } from '../../../shared/schemas/accounts';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { useZodForm } from '../../ui/use-zod-form';
import { NetworkButton } from '../../ui/needs-network';
import { useLogin } from './use-login';

function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return serverMessages.incorrectLogin;
  if (error instanceof ApiError && error.code === 'RATE_LIMITED') return error.message;
  return 'Something went wrong.';
}

type LoginFormProps = {
  onForgotPassword: () => void;
  onCreateAccount?: () => void;
  onSuccess?: () => void;
  /** Passed on to the sign-up page so the user still comes back where they started. */
  from?: string;
};

/** Email and password, used by the login page and the login dialog (spec part 1 section 2). */
export function LoginForm({ onForgotPassword, onCreateAccount, onSuccess, from }: LoginFormProps) {
  const form = useZodForm(loginSchema, { email: '', password: '' });
  const login = useLogin();
  const { errors } = form.formState;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((values) => login.mutate(values, { onSuccess: () => onSuccess?.() }))}
    >
      {login.isError && <Alert tone="error">{loginErrorMessage(login.error)}</Alert>}
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <button type="button" className="link-button" onClick={onForgotPassword}>
        Forgot password?
      </button>
      <NetworkButton
        action="log in"
        type="submit"
        className="button button-primary button-block"
        disabled={login.isPending}
      >
        {login.isPending ? 'Logging in...' : 'Log in'}
      </NetworkButton>
      <p className="form-footer">
        New here?{' '}
        <Link to="/signup" state={{ from }} onClick={onCreateAccount}>
          Create account
        </Link>
      </p>
    </form>
  );
}
