import { useMutation } from '@tanstack/react-query';
import type { LoginInput } from '../../../shared/schemas/accounts';
import { apiRequest } from '../../api/http';
import { queryClient } from '../../lib/query-client';
import { setUser, userQueryOptions } from '../../lib/session';

export class UserLoadError extends Error {}

export function useLogin() {
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      await apiRequest('/api/login', 'user', { method: 'POST', form: input });
      // Spec part 1 section 4: a successful login loads the user; if that load fails the user is
      // logged out again and sees 'Something went wrong.'.
      try {
        const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
        if (!user) throw new Error('No user after login');
        setUser(user);
        return user;
      } catch {
        await apiRequest('/api/logout', 'ok', { method: 'POST' }).catch(() => undefined);
        setUser(null);
        throw new UserLoadError();
      }
    },
  });
}
