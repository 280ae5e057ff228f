import type { User } from '../../../../shared/answers/accounts';
import { useZodForm } from '../../../ui/use-zod-form';
import { CHARITY_FIELDS, CharityFields, charityDefaults, charityFormSchema } from '../charity-fields';
import { DraftStepForm } from './draft-step-form';
import { useSaveDraft } from './use-save-draft';
import type { WizardData } from './wizard-store';

/** 'Choose a charity': goal, minimum and nonprofit; the draft is created (or updated) here. */
export function CharityStep({ user, data }: { user: User; data: WizardData }) {
  const form = useZodForm(charityFormSchema, data.charity ?? charityDefaults({}));
  const saveDraft = useSaveDraft(user, data);
  return (
    <DraftStepForm
      form={form}
      fields={CHARITY_FIELDS}
      back="artist"
      next="details"
      save={() => saveDraft({ charity: form.getValues() })}
    >
      <p className="muted">
        Every donation goes to the charity you choose, minus card fees. Fans give at least your minimum; the goal is
        shown on your fundraiser's page.
      </p>
      <CharityFields />
    </DraftStepForm>
  );
}
