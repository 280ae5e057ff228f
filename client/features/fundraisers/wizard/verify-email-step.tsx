import type { User } from '../../../../shared/answers/accounts';
import { setUser } from '../../../lib/session';
import { VerifyEmailForm } from '../../../ui/verify-email-form';
import { useWizardStore } from './wizard-store';

/**
 * Email verification inside the wizard (spec part 2 sections 4 and 8): on success the verified
 * user the server answers with is stored, and the wizard, seeing a verified email, moves on by
 * itself.
 */
export function VerifyEmailStep({ user }: { user: User }) {
  const updateWizard = useWizardStore((state) => state.update);
  return (
    <>
      <h2>Verify your email</h2>
      <VerifyEmailForm
        email={user.email}
        actionsClassName="wizard-actions"
        onVerified={(verified) => {
          // The step stays in the list, done, for the rest of this run.
          updateWizard(user.email, { hadVerify: true });
          // The answer is the user, now verified: stored as it is ("the user is reloaded", spec part 2
          // section 4), so no second request can fail after the code was accepted.
          setUser(verified);
        }}
      />
    </>
  );
}
