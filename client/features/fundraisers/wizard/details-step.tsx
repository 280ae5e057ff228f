import type { User } from '../../../../shared/answers/accounts';
import { fundraiserDetailsSchema } from '../../../../shared/schemas/fundraisers';
import { useZodForm } from '../../../ui/use-zod-form';
import { DETAILS_FIELDS, DetailsFields, detailsDefaults } from '../details-fields';
import { DraftStepForm } from './draft-step-form';
import { useSaveDraft } from './use-save-draft';
import type { WizardData } from './wizard-store';

/** 'Set up your fundraiser': name, description, genres and video codes, saved into the draft. */
export function DetailsStep({ user, data }: { user: User; data: WizardData }) {
  const form = useZodForm(fundraiserDetailsSchema, data.details ?? detailsDefaults({}));
  const saveDraft = useSaveDraft(user, data);
  return (
    <DraftStepForm
      form={form}
      fields={DETAILS_FIELDS}
      back="charity"
      next="music"
      save={() => saveDraft({ details: form.getValues() })}
    >
      <DetailsFields />
    </DraftStepForm>
  );
}
