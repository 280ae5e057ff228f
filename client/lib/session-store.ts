import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { type User, userSchema } from '../../shared/schemas/accounts';

// The logged-in user, kept in sessionStorage (spec part 1 section 4) so a reload paints at once;
// GET /api/user confirms it on every load and a 401 clears it.

type SessionState = {
  user: User | null;
  /** True once this page load knows whether someone is logged in (or the server could not say). */
  confirmed: boolean;
  /**
   * Set by sign-up only: the guest-only pages then move on to the post-signup route instead of
   * home. Not persisted; any other change of user clears it.
   */
  justSignedUp: boolean;
  setUser: (user: User | null, options?: { signedUp?: boolean }) => void;
  /** The session check failed (offline, server down): stop waiting and go on with what we have. */
  markConfirmed: () => void;
};

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      user: null,
      confirmed: false,
      justSignedUp: false,
      setUser: (user, options) => set({ user, confirmed: true, justSignedUp: options?.signedUp ?? false }),
      markConfirmed: () => set({ confirmed: true }),
    }),
    {
      name: 'soundcause-user',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => ({ user: state.user }),
      // Storage can hold anything (an older version's shape, a hand edit): only a valid user is
      // taken; anything else counts as logged out until GET /api/user answers.
      merge: (persisted, current) => {
        const stored = userSchema.safeParse((persisted as { user?: unknown } | undefined)?.user);
        return { ...current, user: stored.success ? stored.data : null };
      },
    },
  ),
);

export const useUser = () => useSessionStore((state) => state.user);
