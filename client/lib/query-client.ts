import { QueryClient } from '@tanstack/react-query';

/** The app's one query cache (its data, and who is logged in: client/lib/session.ts). */
export const queryClient = new QueryClient({
  defaultOptions: {
    // offlineFirst: with no network a query still tries once, since the service worker may answer
    // it from the device (a saved album); if not, it waits for the connection (ui/spinner.tsx then
    // says the page needs one). Mutations fail at once with no network rather than hang.
    queries: { refetchOnWindowFocus: false, retry: 1, networkMode: 'offlineFirst' },
    mutations: { networkMode: 'always' },
  },
});
