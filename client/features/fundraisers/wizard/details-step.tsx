import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { User } from '../../../../shared/schemas/accounts';
import { fundraiserDetailsSchema } from '../../../../shared/schemas/fundraisers';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { DETAILS_FIELDS, DetailsFields, detailsDefaults } from '../details-fields';
import { describeFailure, type FormFailure, FormFailureDialog } from '../form-failure';
import { useSaveDraft, useSubmitOnce } from './use-save-draft';
import { WizardActions } from './wizard-actions';
import type { WizardData } from './wizard-store';
import { WIZARD_BASE } from './wizard-steps';

/** 'Set up your fundraiser': name, description, genres and video codes, saved into the draft. */
export function DetailsStep({ user, data }: { user: User; data: WizardData }) {
  const navigate = useNavigate();
  const form = useZodForm(fundraiserDetailsSchema, data.details ?? detailsDefaults({}));
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
              if (await saveDraft({ details: form.getValues() })) await navigate(`${WIZARD_BASE}/music`);
            } catch (error) {
              setFailure(
                describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, DETAILS_FIELDS)),
              );
            }
          }),
        )}
      >
        <DetailsFields />
        <WizardActions back="charity" label="Next" pendingLabel="Saving..." pending={form.formState.isSubmitting} />
      </form>
      <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
    </FormProvider>
  );
}
