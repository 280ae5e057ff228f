import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { serverMessages } from '../../shared/api';
import { type RegisterInput, signUpFormSchema } from '../../shared/schemas/accounts';
import { type User } from '../../shared/answers/accounts';
import { apiRequest } from '../api/http';
import { ApiError } from '../api/errors';
import { trackEvent } from '../lib/analytics';
import { setUser } from '../lib/session';
import { useSite } from '../lib/site';
import { NameFields } from './account-fields';
import { MessageDialog } from './dialog';
import { FormField } from './form-field';
import { NewPasswordFields } from './new-password-fields';
import { applyServerFormErrors, useZodForm } from './use-zod-form';
import { NetworkButton } from './needs-network';

const fields = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'] as const;

type SignUpFormProps = {
  /** Where 'Log in' (and the duplicate-account dialog's link) should bring the user back to. */
  loginFrom: string | undefined;
  /** Runs with the new user just before it is stored as the session's user. */
  onRegistered?: (user: User) => void;
  /** A row the submit button sits in (the wizard's actions); a full-width button without one. */
  actionsClassName?: string;
};

/**
 * 'Create an account' (spec part 1 section 2, part 2 sections 2 and 8): POST /api/register, which
 * starts the session; the pages around it move on once the user is stored. Used by the sign-up
 * page and the fundraiser wizard. An `?email=` in the URL fills the email in.
 */
export function SignUpForm({ loginFrom, onRegistered, actionsClassName }: SignUpFormProps) {
  const { contactEmail } = useSite();
  const [searchParams] = useSearchParams();
  const [failure, setFailure] = useState<'duplicate' | 'other' | null>(null);
  const form = useZodForm(signUpFormSchema, {
    firstName: '',
    lastName: '',
    email: searchParams.get('email') ?? '',
    password: '',
    confirmPassword: '',
  });
  const register = useMutation({
    mutationFn: (input: RegisterInput) => apiRequest('/api/register', 'user', { method: 'POST', json: input }),
    onSuccess: (user) => {
      void trackEvent('Sign up');
      onRegistered?.(user);
      setUser(user, { signedUp: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.message === serverMessages.duplicateUser) return setFailure('duplicate');
      if (error instanceof ApiError && error.formErrors) {
        if (applyServerFormErrors(form, error.formErrors, fields).length === 0) return;
      }
      setFailure('other');
    },
  });
  const { errors } = form.formState;
  const submit = (
    <NetworkButton
      action="create an account"
      type="submit"
      className={`button button-primary${actionsClassName ? '' : ' button-block'}`}
      disabled={register.isPending}
    >
      {register.isPending ? 'Creating account...' : 'Create account'}
    </NetworkButton>
  );

  return (
    <>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(({ firstName, lastName, email, password }) =>
          register.mutate({ firstName, lastName, email, password }),
        )}
      >
        <NameFields register={form.register} errors={form.formState.errors} />
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <NewPasswordFields
          passwordLabel="Password"
          password={form.register('password')}
          confirmPassword={form.register('confirmPassword')}
          errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
        />
        {actionsClassName ? <div className={actionsClassName}>{submit}</div> : submit}
        <p className="form-footer">
          Already have an account?{' '}
          <Link to="/login" state={{ from: loginFrom }}>
            Log in
          </Link>
        </p>
      </form>
      <MessageDialog open={failure !== null} onClose={() => setFailure(null)} title="Unable to create account">
        {failure === 'duplicate' ? (
          <p>
            An account already exists for this email. Please{' '}
            <Link to="/login" state={{ from: loginFrom }}>
              click here to log in
            </Link>
            .
          </p>
        ) : (
          <p>
            Something went wrong! If the problem persists, please contact us at{' '}
            <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
          </p>
        )}
      </MessageDialog>
    </>
  );
}
