import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { User } from '../../../shared/schemas/accounts';

// The logged-in user, kept in sessionStorage (spec part 1 section 4) so a reload paints at once;
// GET /api/user confirms it on every load and a 401 clears it.

type SessionState = {
  user: User | null;
  /** True once GET /api/user has answered in this page load. */
  confirmed: boolean;
  setUser: (user: User | null) => void;
};

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      user: null,
      confirmed: false,
      setUser: (user) => set({ user, confirmed: true }),
    }),
    {
      name: 'soundcause-user',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => ({ user: state.user }),
    },
  ),
);

export const useUser = () => useSessionStore((state) => state.user);
