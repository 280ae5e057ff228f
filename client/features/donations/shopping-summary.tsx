import { formatCents } from '../../../shared/money';

/** Donation, tip and total in dollars with two decimals (spec part 2 section 2). */
export function ShoppingSummary({
  donationCents,
  tipCents,
  isPlatform,
}: {
  donationCents: number;
  tipCents: number;
  isPlatform: boolean;
}) {
  return (
    <aside className="donation-summary card" aria-label="Summary">
      <h2>Summary</h2>
      <dl>
        {!isPlatform && (
          <div>
            <dt>Donation</dt>
            <dd>{formatCents(donationCents)}</dd>
          </div>
        )}
        <div>
          <dt>{isPlatform ? 'Gift' : 'Tip'}</dt>
          <dd>{formatCents(tipCents)}</dd>
        </div>
        <div className="donation-summary-total">
          <dt>Total</dt>
          <dd>{formatCents(donationCents + tipCents)}</dd>
        </div>
      </dl>
    </aside>
  );
}
