import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { changeEmailSchema, verifyEmailSchema } from '../../../shared/schemas/accounts';
import { type User } from '../../../shared/answers/accounts';
import { errorMessage, formErrorsOf } from '../../api/http';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { VerificationCodeField } from '../../ui/account-fields';
import { FormField } from '../../ui/form-field';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import {
  emailChangeQueryOptions,
  useCancelEmailChange,
  useConfirmEmailChange,
  useRequestEmailChange,
} from './account-api';
import { NetworkButton } from '../../ui/needs-network';

/**
 * The account's email address and changing it (issue 9): the new address must be proven with a
 * code sent to it before it replaces the old one, which is told of the change.
 */
export function EmailSection({ user }: { user: User }) {
  const change = useQuery(emailChangeQueryOptions);
  const [editing, setEditing] = useState(false);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const pending = change.data?.pending ?? null;
  return (
    <section className="card stack" aria-labelledby="email-heading">
      <h2 id="email-heading">Email address</h2>
      <p className="account-email">
        <strong>{user.email}</strong>{' '}
        {user.isEmailVerified ? (
          <span className="chip chip-success">Verified</span>
        ) : (
          <span className="chip chip-warning">Not verified</span>
        )}
      </p>
      <div aria-live="polite">
        {changedTo && (
          <Alert tone="success">
            Your email address is now {changedTo}. Music bought with it is in Your music; we told your old address.
          </Alert>
        )}
      </div>
      {pending ? (
        <ConfirmEmailChange
          newEmail={pending.newEmail}
          onConfirmed={(email) => {
            setEditing(false);
            setChangedTo(email);
          }}
        />
      ) : editing ? (
        <RequestEmailChange onCancel={() => setEditing(false)} />
      ) : (
        <p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setChangedTo(null);
              setEditing(true);
            }}
          >
            Change email address
          </button>
        </p>
      )}
    </section>
  );
}

function RequestEmailChange({ onCancel }: { onCancel: () => void }) {
  const form = useZodForm(changeEmailSchema, { email: '', password: '' });
  const request = useRequestEmailChange();
  const { errors } = form.formState;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        request.mutate(values, {
          onError: (error) => applyServerFormErrors(form, formErrorsOf(error), ['email', 'password']),
        }),
      )}
    >
      <p>We will send a code to the new address. Your account keeps its current address until you enter it.</p>
      {request.isError && formErrorsOf(request.error).length === 0 && (
        <Alert tone="error">{errorMessage(request.error, 'Something went wrong!')}</Alert>
      )}
      <FormField
        label="New email address"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <FormField
        label="Current password"
        type="password"
        autoComplete="current-password"
        hint="To be sure it is you."
        error={errors.password?.message}
        {...form.register('password')}
      />
      <div className="actions">
        <NetworkButton
          action="change your email address"
          type="submit"
          className="button button-primary"
          disabled={request.isPending}
        >
          {request.isPending ? 'Sending code...' : 'Send code'}
        </NetworkButton>
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ConfirmEmailChange({ newEmail, onConfirmed }: { newEmail: string; onConfirmed: (email: string) => void }) {
  const form = useZodForm(verifyEmailSchema, { verificationCode: '' });
  const confirm = useConfirmEmailChange();
  const cancel = useCancelEmailChange();
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit(({ verificationCode }) =>
        confirm.mutate(verificationCode, {
          onSuccess: (user) => onConfirmed(user.email),
          onError: (error) =>
            form.setError('verificationCode', {
              type: 'server',
              message: error instanceof ApiError && error.code ? error.message : 'Something went wrong',
            }),
        }),
      )}
    >
      <p>
        We sent a 6-digit code to <strong>{newEmail}</strong>. Enter it to use that address for your account.
      </p>
      <VerificationCodeField register={form.register} errors={form.formState.errors} />
      {cancel.isError && <Alert tone="error">{errorMessage(cancel.error, 'Something went wrong!')}</Alert>}
      <div className="actions">
        <NetworkButton
          action="confirm your new address"
          type="submit"
          className="button button-primary"
          disabled={confirm.isPending}
        >
          {confirm.isPending ? 'Confirming...' : 'Confirm new address'}
        </NetworkButton>
        <NetworkButton
          action="keep your current address"
          type="button"
          className="button button-ghost"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate()}
        >
          Keep my current address
        </NetworkButton>
      </div>
    </form>
  );
}
