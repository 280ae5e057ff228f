import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { okSchema } from '../../../shared/api';
import { newPasswordFormSchema } from '../../../shared/schemas/accounts';
import { apiRequest, errorMessage } from '../../api/http';
import { Alert } from '../../ui/alert';
import { NewPasswordFields } from '../../ui/new-password-fields';
import { useZodForm } from '../../ui/use-zod-form';
import { useUser } from '../../lib/session-store';
import { usePageTitle } from '../../lib/site';

export function AccountPage() {
  usePageTitle('Account details');
  const user = useUser();
  if (!user) return null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className="page narrow stack">
      <h1>Account details</h1>
      <section className="card stack" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Your details</h2>
        <dl className="details">
          <dt>Name</dt>
          <dd>{name || '—'}</dd>
          <dt>Email</dt>
          <dd>
            {user.email}{' '}
            {user.isEmailVerified ? (
              <span className="chip chip-success">Verified</span>
            ) : (
              <>
                <span className="chip chip-warning">Not verified</span>{' '}
                <Link to="/user/verify-email">Verify your email</Link>
              </>
            )}
          </dd>
        </dl>
      </section>
      <ChangePasswordForm />
    </div>
  );
}

function ChangePasswordForm() {
  const form = useZodForm(newPasswordFormSchema, { password: '', confirmPassword: '' });
  const change = useMutation({
    mutationFn: (password: string) =>
      apiRequest('/api/user/password', okSchema, { method: 'POST', json: { password } }),
    onSuccess: () => form.reset({ password: '', confirmPassword: '' }),
  });
  const { errors } = form.formState;
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form className="form" noValidate onSubmit={form.handleSubmit(({ password }) => change.mutate(password))}>
        {change.isSuccess && (
          <Alert tone="success">Your password has been changed. Other devices have been logged out.</Alert>
        )}
        {change.isError && <Alert tone="error">{errorMessage(change.error, 'Something went wrong!')}</Alert>}
        <NewPasswordFields
          passwordLabel="New password"
          password={form.register('password')}
          confirmPassword={form.register('confirmPassword')}
          errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
        />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={change.isPending}>
            {change.isPending ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
