import { updateProfileSchema } from '../../../shared/schemas/accounts';
import { type User } from '../../../shared/answers/accounts';
import { errorMessage, formErrorsOf } from '../../api/http';
import { Alert } from '../../ui/alert';
import { NameFields } from '../../ui/account-fields';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { useUpdateProfile } from './account-api';
import { NetworkButton } from '../../ui/needs-network';

/** First and last name, saved with PATCH /api/user (issue 9). */
export function ProfileForm({ user }: { user: User }) {
  const form = useZodForm(updateProfileSchema, { firstName: user.firstName ?? '', lastName: user.lastName ?? '' });
  const update = useUpdateProfile();
  const { isDirty } = form.formState;
  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Your name</h2>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit((values) =>
          update.mutate(values, {
            onSuccess: (saved) => form.reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' }),
            onError: (error) => applyServerFormErrors(form, formErrorsOf(error), ['firstName', 'lastName']),
          }),
        )}
      >
        {update.isSuccess && !isDirty && <Alert tone="success">Your name has been saved.</Alert>}
        {update.isError && formErrorsOf(update.error).length === 0 && (
          <Alert tone="error">{errorMessage(update.error, 'Something went wrong!')}</Alert>
        )}
        <NameFields register={form.register} errors={form.formState.errors} />
        <div className="actions">
          <NetworkButton
            action="save your name"
            type="submit"
            className="button button-primary"
            disabled={update.isPending || !isDirty}
          >
            {update.isPending ? 'Saving...' : 'Save name'}
          </NetworkButton>
        </div>
      </form>
    </section>
  );
}
