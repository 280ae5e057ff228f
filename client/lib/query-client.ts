import { QueryClient } from '@tanstack/react-query';

/** The app's one query cache (its data, and who is logged in: client/lib/session.ts). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
