import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEmailInput, type UpdateProfileInput } from '../../../shared/schemas/accounts';
import { apiRequest } from '../../api/http';
import { libraryKeys } from '../../api/library';
import { useFlash } from '../../lib/flash';
import { setUser, useLeaveSession } from '../../lib/session';

// The account page's calls (issue 9): PATCH /api/user, the email change under /api/user/email,
// and DELETE /api/user. The user each answers with becomes the session's user at once.

export const accountKeys = { emailChange: ['account', 'email-change'] as const };

export const emailChangeQueryOptions = queryOptions({
  queryKey: accountKeys.emailChange,
  queryFn: () => apiRequest('/api/user/email', 'emailChange'),
});

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => apiRequest('/api/user', 'user', { method: 'PATCH', json: input }),
    onSuccess: (user) => setUser(user),
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeEmailInput) =>
      apiRequest('/api/user/email', 'emailChange', { method: 'POST', json: input }),
    onSuccess: (change) => queryClient.setQueryData(accountKeys.emailChange, change),
  });
}

export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (verificationCode: string) =>
      apiRequest('/api/user/email/verify', 'user', { method: 'POST', json: { verificationCode } }),
    onSuccess: (user) => {
      setUser(user);
      queryClient.setQueryData(accountKeys.emailChange, { pending: null });
      // Purchases follow the email address: what Your music lists may have changed.
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/user/email', 'emailChange', { method: 'DELETE' }),
    onSuccess: (change) => queryClient.setQueryData(accountKeys.emailChange, change),
  });
}

export function useDeleteAccount() {
  const leaveSession = useLeaveSession();
  return useMutation({
    mutationFn: (password: string) => apiRequest('/api/user', 'ok', { method: 'DELETE', json: { password } }),
    onSuccess: () => {
      // Said here, not by the dialog: the dialog is gone with the page once the session is left.
      useFlash.getState().show('Your account has been deleted.', '/');
      leaveSession();
    },
  });
}
