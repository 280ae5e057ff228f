import { useMutation } from '@tanstack/react-query';
import { mailingListSignupSchema } from '../../../shared/schemas/accounts';
import { apiRequest, errorMessage } from '../../api/http';
import { FormField } from '../../ui/form-field';
import { useZodForm } from '../../ui/use-zod-form';
import { NetworkButton } from '../../ui/needs-network';
import { signupText } from './signup-text';

/**
 * Footer signup for the updates list (stored by the server, forwarded when configured). Its form
 * library loads when the footer comes near the screen (MailingListSlot).
 */
export function MailingListSignup() {
  const form = useZodForm(mailingListSignupSchema, { email: '' });
  const subscribe = useMutation({
    mutationFn: (email: string) => apiRequest('/api/mailing-list', 'ok', { method: 'POST', json: { email } }),
    onSuccess: () => form.reset({ email: '' }),
  });
  return (
    <form
      className="mailing-list"
      noValidate
      onSubmit={form.handleSubmit(({ email }) => subscribe.mutate(email))}
      aria-label="Mailing list signup"
    >
      <FormField
        label={signupText.label}
        type="email"
        autoComplete="email"
        placeholder={signupText.placeholder}
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <NetworkButton action="sign up" type="submit" className="button button-secondary" disabled={subscribe.isPending}>
        {subscribe.isPending ? 'Signing up...' : 'Sign up'}
      </NetworkButton>
      <p className="mailing-list-status" role="status">
        {subscribe.isSuccess && 'Thanks! You are on the list.'}
        {subscribe.isError && errorMessage(subscribe.error, 'Something went wrong! Please try again.')}
      </p>
    </form>
  );
}
