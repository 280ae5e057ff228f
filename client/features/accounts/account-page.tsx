import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { newPasswordFormSchema } from '../../../shared/schemas/accounts';
import { type User } from '../../../shared/answers/accounts';
import { apiRequest, errorMessage, formErrorsOf } from '../../api/http';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { NewPasswordFields } from '../../ui/new-password-fields';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { DeleteAccountSection } from './delete-account';
import { EmailSection } from './email-change';
import { ProfileForm } from './profile-form';
import { NetworkButton } from '../../ui/needs-network';

/** Account details (spec part 1 section 2, and issue 9): name, email, password, deleting the account. */
export function AccountPage() {
  usePageTitle('Account details');
  const user = useUser();
  if (!user) return null;
  return (
    <div className="page narrow stack">
      <h1>Account details</h1>
      <ProfileForm user={user} />
      <EmailSection user={user} />
      <VerificationNotice user={user} />
      <ChangePasswordForm />
      <DeleteAccountSection />
    </div>
  );
}

function VerificationNotice({ user }: { user: User }) {
  if (user.isEmailVerified) return null;
  return (
    <Alert tone="warning" title="Your email address is not verified yet">
      <p>
        You need a verified email to create artists and fundraisers.{' '}
        <Link to="/user/verify-email">Verify your email</Link>
      </p>
    </Alert>
  );
}

function ChangePasswordForm() {
  const form = useZodForm(newPasswordFormSchema, { password: '', confirmPassword: '' });
  const change = useMutation({
    mutationFn: (password: string) => apiRequest('/api/user/password', 'ok', { method: 'POST', json: { password } }),
    onSuccess: () => form.reset({ password: '', confirmPassword: '' }),
    onError: (error) => applyServerFormErrors(form, formErrorsOf(error), ['password']),
  });
  const { errors } = form.formState;
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form className="form" noValidate onSubmit={form.handleSubmit(({ password }) => change.mutate(password))}>
        {change.isSuccess && (
          <Alert tone="success">Your password has been changed. Other devices have been logged out.</Alert>
        )}
        {change.isError && !errors.password && (
          <Alert tone="error">{errorMessage(change.error, 'Something went wrong!')}</Alert>
        )}
        <NewPasswordFields
          passwordLabel="New password"
          password={form.register('password')}
          confirmPassword={form.register('confirmPassword')}
          errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
        />
        <div className="actions">
          <NetworkButton
            action="change your password"
            type="submit"
            className="button button-primary"
            disabled={change.isPending}
          >
            {change.isPending ? 'Saving...' : 'Change password'}
          </NetworkButton>
        </div>
      </form>
    </section>
  );
}
