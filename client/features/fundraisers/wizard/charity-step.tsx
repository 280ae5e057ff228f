import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { User } from '../../../../shared/schemas/accounts';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { CHARITY_FIELDS, CharityFields, charityDefaults, charityFormSchema } from '../charity-fields';
import { describeFailure, type FormFailure, FormFailureDialog } from '../form-failure';
import { useSaveDraft, useSubmitOnce } from './use-save-draft';
import { WizardActions } from './wizard-actions';
import type { WizardData } from './wizard-store';
import { WIZARD_BASE } from './wizard-steps';

/** 'Choose a charity': goal, minimum and nonprofit; the draft is created (or updated) here. */
export function CharityStep({ user, data }: { user: User; data: WizardData }) {
  const navigate = useNavigate();
  const form = useZodForm(charityFormSchema, data.charity ?? charityDefaults({}));
  const saveDraft = useSaveDraft(user, data);
  const once = useSubmitOnce();
  const [failure, setFailure] = useState<FormFailure | null>(null);

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={once(
          form.handleSubmit(async () => {
            try {
              if (await saveDraft({ charity: form.getValues() })) await navigate(`${WIZARD_BASE}/details`);
            } catch (error) {
              setFailure(
                describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, CHARITY_FIELDS)),
              );
            }
          }),
        )}
      >
        <p className="muted">
          Every donation goes to the charity you choose, minus card fees. Fans give at least your minimum; the goal is
          shown on your fundraiser's page.
        </p>
        <CharityFields />
        <WizardActions back="artist" label="Next" pendingLabel="Saving..." pending={form.formState.isSubmitting} />
      </form>
      <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
    </FormProvider>
  );
}
