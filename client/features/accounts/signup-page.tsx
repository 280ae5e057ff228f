import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { serverMessages } from '../../../shared/api';
import { type RegisterInput, signUpFormSchema, userSchema } from '../../../shared/schemas/accounts';
import { ApiError, apiRequest } from '../../api/http';
import { FormField } from '../../ui/form-field';
import { NewPasswordFields } from './new-password-fields';
import { MessageDialog } from '../../ui/dialog';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { trackEvent } from '../../lib/analytics';
import { useStoreSignedUpUser } from '../../lib/session-api';
import { fromState } from '../../lib/return-to';
import { useSite } from '../../lib/site';
import { usePageTitle } from '../../lib/site';

const fields = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'] as const;

/** 'Create an account'; on success the guest-only guard goes on to /user/verify-email. */
export function SignUpPage() {
  usePageTitle('Create an account');
  const { contactEmail } = useSite();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const storeUser = useStoreSignedUpUser();
  const [failure, setFailure] = useState<'duplicate' | 'other' | null>(null);
  const form = useZodForm(signUpFormSchema, {
    firstName: '',
    lastName: '',
    email: searchParams.get('email') ?? '',
    password: '',
    confirmPassword: '',
  });
  const register = useMutation({
    mutationFn: (input: RegisterInput) => apiRequest('/api/register', userSchema, { method: 'POST', json: input }),
    onSuccess: (user) => {
      void trackEvent('Sign up');
      storeUser(user);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.message === serverMessages.duplicateUser) return setFailure('duplicate');
      if (error instanceof ApiError && error.formErrors) {
        const unmatched = applyServerFormErrors(form, error.formErrors, fields);
        if (unmatched.length === 0) return;
      }
      setFailure('other');
    },
  });
  const { errors } = form.formState;

  return (
    <div className="page narrow auth-page">
      <div className="card auth-card">
        <h1>Create an account</h1>
        <form
          className="form"
          noValidate
          onSubmit={form.handleSubmit(({ firstName, lastName, email, password }) =>
            register.mutate({ firstName, lastName, email, password }),
          )}
        >
          <div className="form-row">
            <FormField
              label="First name"
              autoComplete="given-name"
              error={errors.firstName?.message}
              {...form.register('firstName')}
            />
            <FormField
              label="Last name"
              autoComplete="family-name"
              error={errors.lastName?.message}
              {...form.register('lastName')}
            />
          </div>
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
          <button type="submit" className="button button-primary button-block" disabled={register.isPending}>
            {register.isPending ? 'Creating account...' : 'Create account'}
          </button>
          <p className="form-footer">
            Already have an account?{' '}
            <Link to="/login" state={{ from: fromState(location) }}>
              Log in
            </Link>
          </p>
        </form>
      </div>
      <MessageDialog open={failure !== null} onClose={() => setFailure(null)} title="Unable to create account">
        {failure === 'duplicate' ? (
          <p>
            An account already exists for this email. Please{' '}
            <Link to="/login" state={{ from: fromState(location) }}>
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
    </div>
  );
}
