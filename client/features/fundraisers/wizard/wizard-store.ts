import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { GENRES } from '../../../../shared/constants';
import type { User } from '../../../../shared/schemas/accounts';
import type { CharityFormValues } from '../charity-fields';
import type { DetailsFormValues } from '../details-fields';

// What the creation wizard knows so far (spec part 2 section 4). Kept in sessionStorage, so a
// reload (or a trip to the login page) keeps the draft id and the answers of the steps done;
// cleared when the fundraiser is created. It belongs to one user: another user's leftovers in
// the same tab are ignored.

export type WizardData = {
  /** The email of the user the draft belongs to. */
  owner: string | null;
  /** This run began with the sign-up / verify steps: they stay in the step list, done. */
  hadSignup: boolean;
  hadVerify: boolean;
  draftId: number | null;
  artistId: number | null;
  charity: CharityFormValues | null;
  details: DetailsFormValues | null;
  /** The fundraiser was created: the wizard is on its way out and starts afresh next time. */
  finished: boolean;
};

const emptyData: WizardData = {
  owner: null,
  hadSignup: false,
  hadVerify: false,
  draftId: null,
  artistId: null,
  charity: null,
  details: null,
  finished: false,
};

// Storage can hold anything (an older shape, a hand edit): only a valid record is taken.
const storedSchema = z.object({
  owner: z.string().nullable(),
  hadSignup: z.boolean(),
  hadVerify: z.boolean(),
  draftId: z.number().int().positive().nullable(),
  artistId: z.number().int().positive().nullable(),
  charity: z
    .object({
      fundraisingGoalCents: z.string(),
      donationMinimumCents: z.string(),
      charityEin: z.string(),
      charityName: z.string().optional(),
      charityLocation: z.string().optional(),
    })
    .nullable(),
  details: z
    .object({
      name: z.string(),
      description: z.string(),
      genre: z.enum(GENRES),
      genreSecondary: z.union([z.literal(''), z.enum(GENRES)]).optional(),
      youtubeLink: z.string().optional(),
      vimeoLink: z.string().optional(),
    })
    .nullable(),
  finished: z.boolean(),
});

type WizardState = WizardData & {
  /** Records answers for `owner`; a record of someone else is dropped first. */
  update: (owner: string | null, changes: Partial<Omit<WizardData, 'owner'>>) => void;
  reset: () => void;
};

export const useWizardStore = create<WizardState>()(
  persist<WizardState, [], [], WizardData>(
    (set) => ({
      ...emptyData,
      update: (owner, changes) =>
        set((state) => ({ ...(state.owner === owner ? pickData(state) : emptyData), ...changes, owner })),
      reset: () => set(emptyData),
    }),
    {
      name: 'soundcause-fundraiser-wizard',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => pickData(state),
      merge: (persisted, current) => {
        const stored = storedSchema.safeParse(persisted);
        return stored.success ? { ...current, ...stored.data } : current;
      },
    },
  ),
);

function pickData(state: WizardData): WizardData {
  const { owner, hadSignup, hadVerify, draftId, artistId, charity, details, finished } = state;
  return { owner, hadSignup, hadVerify, draftId, artistId, charity, details, finished };
}

/** The wizard's answers for this user: empty when what is stored belongs to someone else. */
export function useWizardData(user: User | null): WizardData {
  const state = useWizardStore();
  const owner = user?.email ?? null;
  return state.owner === owner ? state : { ...emptyData, owner };
}
