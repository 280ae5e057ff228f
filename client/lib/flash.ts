import { create } from 'zustand';

// A one-time message for the page a flow ends on (e.g. home after a password reset). It shows on
// `path`, and goes when the user dismisses it or leaves that page.

type FlashState = {
  message: string | null;
  path: string | null;
  seen: boolean;
  show: (message: string, path: string) => void;
  markSeen: () => void;
  clear: () => void;
};

export const useFlash = create<FlashState>()((set) => ({
  message: null,
  path: null,
  seen: false,
  show: (message, path) => set({ message, path, seen: false }),
  markSeen: () => set({ seen: true }),
  clear: () => set({ message: null, path: null, seen: false }),
}));
