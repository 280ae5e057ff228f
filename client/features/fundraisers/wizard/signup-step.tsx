import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { serverMessages } from '../../../../shared/api';
import { messages } from '../../../../shared/messages';
import { type RegisterInput, signUpFormSchema, userSchema } from '../../../../shared/schemas/accounts';
import { ApiError, apiRequest } from '../../../api/http';
import { trackEvent } from '../../../lib/analytics';
import { useStoreSignedUpUser } from '../../../lib/session-api';
import { useSite } from '../../../lib/site';
import { MessageDialog } from '../../../ui/dialog';
import { FormField } from '../../../ui/form-field';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { useWizardStore } from './wizard-store';
import { WIZARD_BASE } from './wizard-steps';

const fields = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'] as const;

/**
 * 'Create an account' inside the wizard (spec part 2 sections 2 and 8): POST /api/register, which
 * starts the session; the wizard then moves on to verification by itself.
 */
export function SignupStep() {
  const { contactEmail } = useSite();
  const [searchParams] = useSearchParams();
  const storeUser = useStoreSignedUpUser();
  const updateWizard = useWizardStore((state) => state.update);
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
      updateWizard(user.email, { hadSignup: true });
      storeUser(user);
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
  const loginState = { from: WIZARD_BASE };

  return (
    <>
      <h2>Create an account</h2>
      <p className="muted">First, an account: it is where you will manage your fundraiser and see its donations.</p>
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
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={messages.passwordHint}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <FormField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <div className="wizard-actions">
          <button type="submit" className="button button-primary" disabled={register.isPending}>
            {register.isPending ? 'Creating account...' : 'Create account'}
          </button>
        </div>
        <p className="form-footer">
          Already have an account?{' '}
          <Link to="/login" state={loginState}>
            Log in
          </Link>
        </p>
      </form>
      <MessageDialog open={failure !== null} onClose={() => setFailure(null)} title="Unable to create account">
        {failure === 'duplicate' ? (
          <p>
            An account already exists for this email. Please{' '}
            <Link to="/login" state={loginState}>
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
