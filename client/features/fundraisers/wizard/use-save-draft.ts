import type { z } from 'zod';
import type { User } from '../../../../shared/schemas/accounts';
import type { saveFundraiserSchema } from '../../../../shared/schemas/fundraisers';
import { charityFormSchema } from '../charity-fields';
import { useSaveFundraiser } from '../fundraiser-form-api';
import { type WizardData, useWizardStore } from './wizard-store';

type SaveBody = z.input<typeof saveFundraiserSchema>;

/**
 * Everything known so far, as POST /api/fundraisers/save takes it; null until both an artist and
 * a charity are chosen (the server refuses a draft without them).
 */
function savePayload(data: WizardData): SaveBody | null {
  if (data.artistId === null || data.charity === null) return null;
  const charity = charityFormSchema.safeParse(data.charity);
  if (!charity.success) return null;
  return {
    ...(data.draftId !== null && { id: data.draftId }),
    artistId: data.artistId,
    charityEin: charity.data.charityEin,
    donationMinimumCents: charity.data.donationMinimumCents,
    fundraisingGoalCents: charity.data.fundraisingGoalCents,
    ...data.details,
  };
}

/**
 * Records a step's answers: once an artist and a charity are known the draft is saved with them
 * (created the first time, updated after: spec part 2 section 4), and the answers are kept only
 * when that succeeds. Rejects with the save's error.
 */
export function useSaveDraft(user: User, data: WizardData) {
  const save = useSaveFundraiser();
  const update = useWizardStore((state) => state.update);
  return {
    isPending: save.isPending,
    saveDraft: async (changes: Partial<Pick<WizardData, 'artistId' | 'charity' | 'details'>>) => {
      const payload = savePayload({ ...data, ...changes });
      if (!payload) {
        update(user.email, changes);
        return;
      }
      const saved = await save.mutateAsync(payload);
      update(user.email, { ...changes, draftId: saved.id });
    },
  };
}
