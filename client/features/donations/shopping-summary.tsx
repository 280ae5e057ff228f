import { formatCents } from '../../../shared/money';

/** Donation, the fee's cover, tip and total in dollars with two decimals (spec part 2 section 2). */
export function ShoppingSummary({
  donationCents,
  tipCents,
  coverCents,
  totalCents,
  isPlatform,
}: {
  donationCents: number;
  tipCents: number;
  /** The card fee's cover the donor chose (issue 26), shown only when there is one. */
  coverCents: number;
  /** The payment's total as the server made it, once there is a payment; else the sum shown. */
  totalCents?: number;
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
        {coverCents > 0 && (
          <div>
            <dt>Card fee covered</dt>
            <dd>{formatCents(coverCents)}</dd>
          </div>
        )}
        <div>
          <dt>{isPlatform ? 'Gift' : 'Tip'}</dt>
          <dd>{formatCents(tipCents)}</dd>
        </div>
        <div className="donation-summary-total">
          <dt>Total</dt>
          <dd>{formatCents(totalCents ?? donationCents + coverCents + tipCents)}</dd>
        </div>
      </dl>
    </aside>
  );
}
