import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { GENRES } from '../../../../shared/constants';
import type { User } from '../../../../shared/answers/accounts';
import type { CharityFormValues } from '../charity-fields';
import type { DetailsFormValues } from '../details-fields';
import type { MusicFormValues } from '../music-fields';

// What the creation wizard knows so far (spec part 2 section 4). Kept in sessionStorage, so a
// reload (or a trip to the login page) keeps the draft id and the answers of the steps done;
// cleared when the fundraiser is created. It belongs to one user: another user's leftovers in
// the same tab are ignored.

/** The music step's values as typed so far, with the names of the files uploaded for them. */
export type WizardMusic = {
  values: MusicFormValues;
  /** Upload id → the name of the file the user picked, shown next to the field. */
  fileNames: Record<string, string>;
};

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
  /** Not sent until the last step is submitted; kept so Back, step links and a reload keep it. */
  music: WizardMusic | null;
  /** The fundraiser was created: the wizard is on its way out and starts afresh next time. */
  finished: boolean;
};

/** Why the wizard started again on its own, shown until the user moves on (not persisted). */
export type WizardNotice = 'draft-gone' | null;

const emptyData: WizardData = {
  owner: null,
  hadSignup: false,
  hadVerify: false,
  draftId: null,
  artistId: null,
  charity: null,
  details: null,
  music: null,
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
  music: z
    .object({
      values: z.object({
        albumCover: z.string(),
        previewTrackName: z.string().optional(),
        previewTrackFile: z.string(),
        trackList: z.array(z.object({ name: z.string(), file: z.string() })),
      }),
      fileNames: z.record(z.string(), z.string()),
    })
    .nullable()
    .catch(null),
  finished: z.boolean(),
});

type WizardState = WizardData & {
  notice: WizardNotice;
  /**
   * Bumped whenever the wizard starts again, so the step on screen is mounted afresh instead of
   * keeping what its form held.
   */
  run: number;
  /** Records answers for `owner`; a record of someone else is dropped first. */
  update: (owner: string | null, changes: Partial<Omit<WizardData, 'owner'>>) => void;
  /**
   * Forgets the draft and every answer about it, back to the first step still to do; sign-up and
   * verification stay done. `notice` says why, when the user did not ask for it.
   */
  restart: (owner: string, notice?: WizardNotice) => void;
  reset: () => void;
};

export const useWizardStore = create<WizardState>()(
  persist<WizardState, [], [], WizardData>(
    (set) => ({
      ...emptyData,
      notice: null,
      run: 0,
      update: (owner, changes) =>
        set((state) => ({
          ...(state.owner === owner ? pickData(state) : emptyData),
          ...changes,
          owner,
          notice: null,
        })),
      restart: (owner, notice = null) =>
        set((state) => ({
          ...emptyData,
          ...(state.owner === owner && { hadSignup: state.hadSignup, hadVerify: state.hadVerify }),
          owner,
          notice,
          run: state.run + 1,
        })),
      reset: () => set({ ...emptyData, notice: null }),
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
  const { owner, hadSignup, hadVerify, draftId, artistId, charity, details, music, finished } = state;
  return { owner, hadSignup, hadVerify, draftId, artistId, charity, details, music, finished };
}

/** The wizard's answers for this user: empty when what is stored belongs to someone else. */
export function useWizardData(user: User | null): WizardData {
  const state = useWizardStore();
  const owner = user?.email ?? null;
  return state.owner === owner ? state : { ...emptyData, owner };
}
