import { useState } from 'react';
import { useNavigate } from 'react-router';
import { donationMessages, TEST_CARDS, testCardSchema } from '../../../shared/schemas/donations';
import { formErrorsOf } from '../../api/http';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { useConfirmTestPayment } from './donations-api';
import { rateLimitText } from './rate-limit-text';
import { TestModeBanner } from './test-mode-banner';
import { NetworkButton } from '../../ui/needs-network';

// The built-in test provider's card form (DESIGN.md section 2): card number, expiry and CVC,
// formatted as they are typed, with the test cards shown. No real money moves.

/** "4242424242424242" → "4242 4242 4242 4242" as it is typed. */
const formatCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1234" → "12/34": the slash comes by itself. */
function formatExpiry(value: string, previous: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  // Deleting the slash deletes the digit before it, or the slash would come straight back.
  if (previous.endsWith('/') && value.length < previous.length) return digits.slice(0, 1);
  return digits.length >= 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

type Fields = 'cardNumber' | 'expiry' | 'cvc';

export function TestCardForm({ clientSecret, successPath }: { clientSecret: string; successPath: string }) {
  const navigate = useNavigate();
  const confirm = useConfirmTestPayment();
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});

  function pay() {
    const checked = testCardSchema.safeParse({ clientSecret, cardNumber, expiry, cvc });
    if (!checked.success) {
      const found: Partial<Record<Fields, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as Fields;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    confirm.mutate(
      { clientSecret, cardNumber, expiry, cvc },
      {
        onSuccess: (paid) => navigate(`${successPath}?payment_intent=${encodeURIComponent(paid.paymentIntentId)}`),
      },
    );
  }

  // Card refusals say the provider's words, and too many tries when to come back; anything else
  // is unexpected (spec part 2 section 8).
  const failure = confirm.error;
  const failureText =
    failure instanceof ApiError && failure.status === 402
      ? failure.message
      : (rateLimitText(failure) ??
        (failure && formErrorsOf(failure).length === 0 ? donationMessages.unexpected : null));

  return (
    <form
      className="form test-card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        pay();
      }}
    >
      <TestModeBanner>Pay with a test card below.</TestModeBanner>
      {failureText && (
        <Alert tone="error">
          {failureText}
          {failure instanceof ApiError && failure.status === 402 && ` ${donationMessages.notSuccessful}`}
        </Alert>
      )}
      <FormField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={cardNumber}
        error={errors.cardNumber}
        onChange={(event) => setCardNumber(formatCardNumber(event.target.value))}
      />
      <div className="form-row">
        <FormField
          label="Expiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          value={expiry}
          error={errors.expiry}
          onChange={(event) => setExpiry(formatExpiry(event.target.value, expiry))}
        />
        <FormField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={cvc}
          error={errors.cvc}
          onChange={(event) => setCvc(event.target.value.replace(/\D/g, '').slice(0, 4))}
        />
      </div>
      <div className="test-cards">
        <p>Test cards (any future expiry, any CVC):</p>
        <ul>
          <li>
            <code>{TEST_CARDS.succeeds}</code> pays
          </li>
          <li>
            <code>{TEST_CARDS.declined}</code> is declined
          </li>
        </ul>
      </div>
      <div className="actions">
        <NetworkButton action="pay" type="submit" className="button button-primary" disabled={confirm.isPending}>
          {confirm.isPending ? 'Paying...' : 'Pay now'}
        </NetworkButton>
      </div>
    </form>
  );
}
