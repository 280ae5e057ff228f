import { create } from 'zustand';

export type LoginDialogView = 'login' | 'forgotpassword';

type LoginDialogState = {
  open: boolean;
  view: LoginDialogView;
  /** Opening always starts on the login view (spec part 1 section 2). */
  show: () => void;
  setView: (view: LoginDialogView) => void;
  close: () => void;
};

export const useLoginDialog = create<LoginDialogState>()((set) => ({
  open: false,
  view: 'login',
  show: () => set({ open: true, view: 'login' }),
  setView: (view) => set({ view }),
  close: () => set({ open: false }),
}));
