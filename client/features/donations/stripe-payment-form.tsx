import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState } from 'react';
import { donationMessages } from '../../../shared/donation-rules';
import { Alert } from '../../ui/alert';
import { stripeFor } from './stripe-loader';
import { PayButton } from './pay-button';
import { type DonationMemo, forgetDonation, rememberDonation } from './recent-donations';

// Stripe's Payment Element (spec part 2 section 4, Payment), loaded only on the payment step.
// Confirmation returns to the current page path plus '/success' (successPath).

type Props = {
  publishableKey: string;
  clientSecret: string;
  successPath: string;
  /** What the button says it pays ("Pay $14.40"). */
  totalCents: number;
  /** The donation to remember (a gift to the platform has none). */
  memo: DonationMemo | null;
};

export default function StripePaymentForm({ publishableKey, clientSecret, ...form }: Props) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret }}>
      <PaymentForm {...form} />
    </Elements>
  );
}

function PaymentForm({ successPath, totalCents, memo }: Omit<Props, 'publishableKey' | 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [message, setMessage] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  async function pay() {
    if (!stripe || !elements) return;
    setPaying(true);
    setMessage(null);
    // Written down before Stripe takes the donor away (to the bank, then the success page) and
    // asked about if they donate again (recent-donations.ts); forgotten if it did not go through.
    if (memo) rememberDonation(memo, false);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}${successPath}` },
    });
    // Only reached when the payment did not go through: card and validation errors are Stripe's
    // own words; anything else is unexpected (spec part 2 section 8).
    if (memo) forgetDonation(memo.paymentIntentId);
    setMessage(
      error.type === 'card_error' || error.type === 'validation_error'
        ? (error.message ?? donationMessages.unexpected)
        : donationMessages.unexpected,
    );
    setPaying(false);
  }

  return (
    <form
      className="form stripe-payment-form"
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      {loadFailed && <Alert tone="error">{donationMessages.paymentFormFailed}</Alert>}
      {message && <Alert tone="error">{message}</Alert>}
      <PaymentElement onLoadError={() => setLoadFailed(true)} />
      <div className="actions">
        <PayButton totalCents={totalCents} paying={paying} disabled={!stripe || !elements || paying} />
      </div>
    </form>
  );
}
