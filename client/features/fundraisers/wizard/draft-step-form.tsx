import { type ReactNode, useState } from 'react';
import { type FieldValues, FormProvider, type UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { describeFailure, type FormFailure, FormFailureDialog } from '../../../ui/form-failure-dialog';
import { applyServerFormErrors } from '../../../ui/use-zod-form';
import { useSubmitOnce } from './use-save-draft';
import { WizardActions } from './wizard-actions';
import { type StepPath, WIZARD_BASE } from './wizard-steps';

type DraftStepFormProps<TValues extends FieldValues, TOutput extends FieldValues> = {
  form: UseFormReturn<TValues, unknown, TOutput>;
  /** The fields the server's formErrors may name. */
  fields: readonly string[];
  back: StepPath;
  next: StepPath;
  /** Records the step's answers (useSaveDraft); false when the wizard has started again instead. */
  save: () => Promise<boolean>;
  children: ReactNode;
};

/**
 * A step whose answers go into the draft (charity, details): checked, saved, then on to the next
 * step; a refused save is explained in the wizard's failure dialog.
 */
export function DraftStepForm<TValues extends FieldValues, TOutput extends FieldValues>({
  form,
  fields,
  back,
  next,
  save,
  children,
}: DraftStepFormProps<TValues, TOutput>) {
  const navigate = useNavigate();
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
              if (await save()) await navigate(`${WIZARD_BASE}/${next}`);
            } catch (error) {
              setFailure(describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, fields)));
            }
          }),
        )}
      >
        {children}
        <WizardActions back={back} label="Next" pendingLabel="Saving..." pending={form.formState.isSubmitting} />
      </form>
      <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
    </FormProvider>
  );
}
