import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '../../shared/api';
import { type LoginInput, type User, userSchema } from '../../shared/schemas/accounts';
import { ApiError, apiRequest } from '../api/http';
import { useSessionStore } from './session-store';

export class UserLoadError extends Error {}

export const sessionKeys = { user: ['session', 'user'] as const };

/** Loads the user; a 401 means logged out. The store follows every answer. */
async function fetchUser(): Promise<User | null> {
  try {
    const user = await apiRequest('/api/user', userSchema);
    useSessionStore.getState().setUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      useSessionStore.getState().setUser(null);
      return null;
    }
    useSessionStore.getState().markConfirmed();
    throw error;
  }
}

export const userQueryOptions = queryOptions({
  queryKey: sessionKeys.user,
  queryFn: fetchUser,
  staleTime: 60_000,
  retry: 1,
});

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      await apiRequest('/api/login', userSchema, { method: 'POST', form: input });
      // Spec part 1 section 4: a successful login loads the user; if that load fails the user is
      // logged out again and sees 'Something went wrong.'.
      try {
        const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
        if (!user) throw new Error('No user after login');
        return user;
      } catch {
        await apiRequest('/api/logout', okSchema, { method: 'POST' }).catch(() => undefined);
        useSessionStore.getState().setUser(null);
        throw new UserLoadError();
      }
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/logout', okSchema, { method: 'POST' }),
    onSettled: () => {
      useSessionStore.getState().setUser(null);
      queryClient.clear();
    },
  });
}

/** Puts the user a sign-up answered straight into the cache and the store. */
export function useStoreSignedUpUser() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.setQueryData(sessionKeys.user, user);
    useSessionStore.getState().setUser(user, { signedUp: true });
  };
}
