import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { setLoggedOutListener } from '../api/http';
import { userQueryOptions } from '../lib/session-api';
import { useSessionStore } from '../lib/session-store';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

// Any response saying the session is dead logs the user out here too (spec part 1 section 4).
setLoggedOutListener(() => {
  if (useSessionStore.getState().user) {
    useSessionStore.getState().setUser(null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' });
  }
});

/** Confirms the stored user with GET /api/user on every load (and when the tab regains focus). */
function SessionCheck() {
  useQuery({ ...userQueryOptions, refetchOnWindowFocus: true });
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionCheck />
      {children}
    </QueryClientProvider>
  );
}
