import { useNavigate } from 'react-router';
import { cardFieldOf } from '../../../shared/card-checks';
import { donationMessages, TEST_CARDS } from '../../../shared/donation-rules';
import { testCardFormSchema } from '../../../shared/schemas/donations';
import { formErrorsOf } from '../../api/http';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { useZodForm } from '../../ui/use-zod-form';
import { useConfirmTestPayment } from './donations-api';
import { PayButton } from './pay-button';
import { type DonationMemo, rememberDonation } from './recent-donations';
import { rateLimitText } from './rate-limit-text';
import { TestModeBanner } from './test-mode-banner';

// The built-in test provider's card form (DESIGN.md section 2): card number, expiry and CVC,
// formatted as they are typed and checked as Stripe's form checks them, in its words, at each
// field (shared/card-checks.ts); the server checks the same. No real money moves.

/** "4242424242424242" → "4242 4242 4242 4242" as it is typed; up to 19 digits. */
const formatCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1234" → "12/34": the slash comes by itself. */
function formatExpiry(value: string, previous: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  // Deleting the slash deletes the digit before it, or the slash would come straight back.
  if (previous.endsWith('/') && value.length < previous.length) return digits.slice(0, 1);
  return digits.length >= 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

type Props = {
  clientSecret: string;
  successPath: string;
  /** What the button says it pays ("Pay $14.40"). */
  totalCents: number;
  /** The donation to remember once paid (a gift to the platform has none). */
  memo: DonationMemo | null;
};

export function TestCardForm({ clientSecret, successPath, totalCents, memo }: Props) {
  const navigate = useNavigate();
  const confirm = useConfirmTestPayment();
  const form = useZodForm(testCardFormSchema, { cardNumber: '', expiry: '', cvc: '' });
  const { errors } = form.formState;

  const pay = form.handleSubmit((card) =>
    confirm.mutate(
      { clientSecret, ...card },
      {
        onSuccess: (paid) => {
          if (memo) rememberDonation(memo, true);
          void navigate(`${successPath}?payment_intent=${encodeURIComponent(paid.paymentIntentId)}`);
        },
        onError: (error) => {
          // The server's card checks are the form's; should they differ (a clock at a month's
          // end), the words go to their field like the form's own.
          const field = error instanceof ApiError && error.status === 402 ? cardFieldOf(error.message) : undefined;
          if (field) form.setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
        },
      },
    ),
  );

  // A declined card says the provider's words, too many tries when to come back; anything else
  // is unexpected (spec part 2 section 8).
  const failure = confirm.error;
  const declined = failure instanceof ApiError && failure.status === 402 && !cardFieldOf(failure.message);
  const failureText = declined
    ? `${failure.message} ${donationMessages.notSuccessful}`
    : (rateLimitText(failure) ??
      (failure && !(failure instanceof ApiError && failure.status === 402) && formErrorsOf(failure).length === 0
        ? donationMessages.unexpected
        : null));

  const cardNumber = form.register('cardNumber');
  const expiry = form.register('expiry');
  const cvc = form.register('cvc');
  return (
    <form className="form test-card-form" noValidate onSubmit={pay}>
      <TestModeBanner>Pay with a test card below.</TestModeBanner>
      {failureText && <Alert tone="error">{failureText}</Alert>}
      <FormField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        error={errors.cardNumber?.message}
        {...cardNumber}
        onChange={(event) => {
          event.target.value = formatCardNumber(event.target.value);
          return cardNumber.onChange(event);
        }}
      />
      <div className="form-row">
        <FormField
          label="Expiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          error={errors.expiry?.message}
          {...expiry}
          onChange={(event) => {
            event.target.value = formatExpiry(event.target.value, form.getValues('expiry'));
            return expiry.onChange(event);
          }}
        />
        <FormField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          error={errors.cvc?.message}
          {...cvc}
          onChange={(event) => {
            event.target.value = event.target.value.replace(/\D/g, '').slice(0, 4);
            return cvc.onChange(event);
          }}
        />
      </div>
      <div className="test-cards">
        <p>Test cards (any future expiry, any three digits as the CVC):</p>
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
        <PayButton totalCents={totalCents} paying={confirm.isPending} disabled={confirm.isPending} />
      </div>
    </form>
  );
}
