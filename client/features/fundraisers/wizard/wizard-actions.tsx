import { Link } from 'react-router';
import { WIZARD_BASE, type StepPath } from './wizard-steps';
import { NetworkButton } from '../../../ui/needs-network';

/** A step's footer: back to the step before, and the step's submit button. */
export function WizardActions({
  back,
  label,
  pendingLabel,
  pending,
  disabled = false,
}: {
  back: StepPath;
  label: string;
  pendingLabel: string;
  pending: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="wizard-actions">
      <Link className="button button-ghost" to={`${WIZARD_BASE}/${back}`}>
        ← Back
      </Link>
      <NetworkButton
        action="save this step"
        type="submit"
        className="button button-primary"
        disabled={pending || disabled}
      >
        {pending ? pendingLabel : label}
      </NetworkButton>
    </div>
  );
}
