import { lazy } from 'react';
import { FormField } from '../../ui/form-field';
import { WhenNear } from '../../ui/when-near';
import { signupText } from './signup-text';

const loadSignup = () => import('./mailing-list-signup');
const MailingListSignup = lazy(() => loadSignup().then((m) => ({ default: m.MailingListSignup })));

/** The form as it looks before its code arrives: the same fields, not yet usable. */
function MailingListPlaceholder() {
  return (
    <form className="mailing-list" aria-label="Mailing list signup" onSubmit={(event) => event.preventDefault()}>
      <FormField label={signupText.label} type="email" placeholder={signupText.placeholder} disabled />
      <button type="submit" className="button button-secondary" disabled>
        Sign up
      </button>
      <p className="mailing-list-status" role="status" />
    </form>
  );
}

/** The footer's signup, loaded when the footer comes near the screen (issue 13). */
export function MailingListSlot() {
  return (
    <WhenNear placeholder={<MailingListPlaceholder />} load={loadSignup}>
      <MailingListSignup />
    </WhenNear>
  );
}
