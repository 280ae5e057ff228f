import { formatCents } from '../../../shared/money';
import { NetworkButton } from '../../ui/needs-network';

/**
 * The payment step's submit button, saying what it pays ("Pay $14.40", issue 22) for either
 * provider's form; the amount never breaks across lines, at any width.
 */
export function PayButton({
  totalCents,
  paying,
  disabled,
}: {
  totalCents: number;
  paying: boolean;
  disabled: boolean;
}) {
  const total = formatCents(totalCents);
  return (
    <NetworkButton action="pay" type="submit" className="button button-primary pay-button" disabled={disabled}>
      {paying ? `Paying ${total}...` : `Pay ${total}`}
    </NetworkButton>
  );
}
