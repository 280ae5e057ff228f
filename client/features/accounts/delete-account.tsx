import { useState } from 'react';
import { deleteAccountSchema } from '../../../shared/schemas/accounts';
import { errorMessage, formErrorsOf } from '../../api/http';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { FormField } from '../../ui/form-field';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { useDeleteAccount } from './account-api';
import { NetworkButton } from '../../ui/needs-network';

/**
 * Deleting the account (issue 9), with the password asked again. What goes and what stays is said
 * before, not after: the artists and fundraisers go; donations stay with the charities, and music
 * bought stays with the email address.
 */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <section className="card stack danger-zone" aria-labelledby="delete-account-heading">
      <h2 id="delete-account-heading">Delete account</h2>
      <p>
        Your artists and fundraisers are removed with your account. Donations already made still go to their charities,
        and music you bought stays with your email address.
      </p>
      <p>
        <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
          Delete my account
        </button>
      </p>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const form = useZodForm(deleteAccountSchema, { password: '' });
  const remove = useDeleteAccount();
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title="Delete your account?" className="dialog-narrow">
      <form
        className="form dialog-body"
        noValidate
        onSubmit={form.handleSubmit(({ password }) =>
          remove.mutate(password, {
            onError: (error) => applyServerFormErrors(form, formErrorsOf(error), ['password']),
          }),
        )}
      >
        <p>
          This cannot be undone. Your artists and fundraisers will be removed, and you will be logged out everywhere.
        </p>
        {remove.isError && formErrorsOf(remove.error).length === 0 && (
          <Alert tone="error">
            {errorMessage(remove.error, 'Something went wrong! Unable to delete your account.')}
          </Alert>
        )}
        <FormField
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <NetworkButton
            action="delete your account"
            type="submit"
            className="button button-danger"
            disabled={remove.isPending}
          >
            {remove.isPending ? 'Deleting...' : 'Delete my account'}
          </NetworkButton>
        </div>
      </form>
    </Dialog>
  );
}
