import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client';
import { userQueryOptions } from '../lib/session';

/** Confirms the user with GET /api/user on every load (and when the tab regains focus). */
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
