import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState } from 'react';
import { donationMessages } from '../../../shared/schemas/donations';
import { Alert } from '../../ui/alert';
import { stripeFor } from './stripe-loader';
import { NetworkButton } from '../../ui/needs-network';

// Stripe's Payment Element (spec part 2 section 4, Payment), loaded only on the payment step.
// Confirmation returns to the current page path plus '/success' (successPath).

type Props = { publishableKey: string; clientSecret: string; successPath: string };

export default function StripePaymentForm({ publishableKey, clientSecret, successPath }: Props) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret }}>
      <PaymentForm successPath={successPath} />
    </Elements>
  );
}

function PaymentForm({ successPath }: { successPath: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [message, setMessage] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  async function pay() {
    if (!stripe || !elements) return;
    setPaying(true);
    setMessage(null);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}${successPath}` },
    });
    // Only reached when the payment did not go through: card and validation errors are Stripe's
    // own words; anything else is unexpected (spec part 2 section 8).
    setMessage(
      error.type === 'card_error' || error.type === 'validation_error'
        ? (error.message ?? donationMessages.unexpected)
        : donationMessages.unexpected,
    );
    setPaying(false);
  }

  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      {loadFailed && <Alert tone="error">{donationMessages.paymentFormFailed}</Alert>}
      {message && <Alert tone="error">{message}</Alert>}
      <PaymentElement onLoadError={() => setLoadFailed(true)} />
      <div className="actions">
        <NetworkButton
          action="pay"
          type="submit"
          className="button button-primary"
          disabled={!stripe || !elements || paying}
        >
          {paying ? 'Paying...' : 'Pay now'}
        </NetworkButton>
      </div>
    </form>
  );
}
