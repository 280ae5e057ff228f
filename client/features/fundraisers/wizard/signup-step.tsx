import { SignUpForm } from '../../../ui/signup-form';
import { useWizardStore } from './wizard-store';
import { WIZARD_BASE } from './wizard-steps';

/**
 * 'Create an account' inside the wizard (spec part 2 sections 2 and 8): the sign-up form, after
 * which the wizard moves on to verification by itself. Logging in instead comes back here.
 */
export function SignupStep() {
  const updateWizard = useWizardStore((state) => state.update);
  return (
    <>
      <h2>Create an account</h2>
      <p className="muted">First, an account: it is where you will manage your fundraiser and see its donations.</p>
      <SignUpForm
        loginFrom={WIZARD_BASE}
        onRegistered={(user) => updateWizard(user.email, { hadSignup: true })}
        actionsClassName="wizard-actions"
      />
    </>
  );
}
