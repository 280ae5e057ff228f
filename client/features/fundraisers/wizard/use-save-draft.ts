import { type BaseSyntheticEvent, useRef } from 'react';
import type { z } from 'zod';
import type { User } from '../../../../shared/answers/accounts';
import type { saveFundraiserSchema } from '../../../../shared/schemas/fundraisers';
import { ApiError } from '../../../api/errors';
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
 * A save or music submit on the wizard's draft was refused because the draft is no longer one
 * this user may change: deleted (404), published or finished elsewhere, or someone else's (403).
 * Retrying cannot help; only a new draft can.
 */
export function isDraftGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}

/**
 * Records a step's answers: once an artist and a charity are known the draft is saved with them
 * (created the first time, updated after: spec part 2 section 4), and the answers are kept only
 * when that succeeds. Resolves false when the draft turned out to be gone: the wizard has then
 * started again, saying why, and the step has nothing more to do. Rejects with any other error.
 */
export function useSaveDraft(user: User, data: WizardData) {
  const save = useSaveFundraiser();
  const update = useWizardStore((state) => state.update);
  const restart = useWizardStore((state) => state.restart);
  return async (changes: Partial<Pick<WizardData, 'artistId' | 'charity' | 'details'>>): Promise<boolean> => {
    const payload = savePayload({ ...data, ...changes });
    if (!payload) {
      update(user.email, changes);
      return true;
    }
    try {
      const saved = await save.mutateAsync(payload);
      update(user.email, { ...changes, draftId: saved.id });
      return true;
    } catch (error) {
      if (payload.id === undefined || !isDraftGone(error)) throw error;
      restart(user.email, 'draft-gone');
      return false;
    }
  };
}

/**
 * Lets a step's submit run once at a time: a second click before the first one has finished (and
 * before React has re-rendered the button disabled) is ignored, so it cannot create a second draft
 * or artist, nor resubmit the music. Wraps the whole handler, form validation included, so
 * react-hook-form's isSubmitting stays true until the first run ends.
 */
export function useSubmitOnce() {
  const running = useRef(false);
  return (task: (event?: BaseSyntheticEvent) => Promise<unknown>) => (event?: BaseSyntheticEvent) => {
    // The browser must not submit the form itself, even when this click is ignored.
    event?.preventDefault();
    if (running.current) return;
    running.current = true;
    void task(event).finally(() => {
      running.current = false;
    });
  };
}
