import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { formatCents, parseDollarsToCents, TIP_PRESETS, tipForPreset } from '../../../shared/money';
import { donationLimits, donationMessages, type PaymentIntentRequest } from '../../../shared/schemas/donations';
import { emailField } from '../../../shared/schemas/text';
import { errorMessage, formErrorsOf } from '../../api/http';
import { useUser } from '../../lib/session';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { Spinner } from '../../ui/spinner';
import { paymentConfigQueryOptions, returningPaymentQueryOptions, useCreatePaymentIntent } from './donations-api';
import { TestCardForm } from './test-card-form';
import { TestModeBanner } from './test-mode-banner';
import { NetworkButton } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';

// The donation form (spec part 2 sections 2, 4 and 5): step 0 who gives what, step 1 the payment,
// with the shopping summary beside both. The same flow gives to a fundraiser (the donate page) and
// to the platform itself (the support page: a tip only). The server decides; this shows the same
// rules as the donor types, with the same messages.

const StripePaymentForm = lazy(() => import('./stripe-payment-form'));

type TipChoice = 'none' | `${(typeof TIP_PRESETS)[number]}` | 'custom';

export type DonationTarget = { kind: 'fundraiser'; projectId: number; minimumCents: number } | { kind: 'platform' };

type Errors = Partial<Record<'name' | 'email' | 'donationCents' | 'tipCents', string>>;

type Intent = { clientSecret: string; paymentIntentId: string };

/** A money input's text as cents, or the message saying what is wrong with it. */
function readMoney(label: 'Donation' | 'Tip', text: string): { cents: number } | { error: string } {
  const cents = parseDollarsToCents(text);
  if (cents === null) return { error: `${label} must be an amount in dollars, like 25 or 25.00` };
  if (cents > donationLimits.maxCents) {
    return { error: label === 'Donation' ? donationMessages.donationMax : donationMessages.tipMax };
  }
  return { cents };
}

export function DonationForm({ target }: { target: DonationTarget }) {
  const user = useUser();
  // Spec part 2 section 4, Payment: the payment returns to the current page's path + '/success'
  // (/projects/{id}/donate comes back to /projects/{id}/donate/success, whichever the donor used).
  const { pathname } = useLocation();
  const successPath = `${pathname.replace(/\/+$/, '')}/success`;
  const id = useId();
  const isPlatform = target.kind === 'platform';
  const [step, setStep] = useState<0 | 1>(0);
  const [name, setName] = useState(user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [donationText, setDonationText] = useState('');
  const [tipChoice, setTipChoice] = useState<TipChoice | null>(isPlatform ? 'custom' : null);
  const [customTipText, setCustomTipText] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [intent, setIntent] = useState<Intent | null>(null);
  const createIntent = useCreatePaymentIntent();
  const config = useQuery(paymentConfigQueryOptions);
  // Stripe's names for the intent a donor comes back with (see the success page).
  const [params] = useSearchParams();
  const returning = useQuery(
    returningPaymentQueryOptions(config.data, params.get('payment_intent_client_secret') ?? ''),
  );

  const donationRead = isPlatform ? { cents: 0 } : readMoney('Donation', donationText);
  const donationCents = 'cents' in donationRead ? donationRead.cents : 0;
  const presetsOff = donationCents === 0;
  const tipRead: { cents: number } | { error: string } | null =
    tipChoice === null
      ? null
      : tipChoice === 'none'
        ? { cents: 0 }
        : tipChoice === 'custom'
          ? readMoney('Tip', customTipText)
          : { cents: tipForPreset(donationCents, Number(tipChoice)) };
  const tipCents = tipRead && 'cents' in tipRead ? tipRead.cents : 0;

  function check(): Errors {
    const found: Errors = {};
    const trimmed = name.trim();
    if (!trimmed) found.name = messages.required('Name');
    else if (trimmed.length > donationLimits.nameMax) found.name = messages.max('Name', donationLimits.nameMax);
    const emailCheck = emailField.safeParse(email);
    if (!emailCheck.success) found.email = emailCheck.error.issues[0]?.message ?? messages.email;
    if (target.kind === 'fundraiser') {
      if ('error' in donationRead) found.donationCents = donationRead.error;
      else if (donationRead.cents < target.minimumCents)
        found.donationCents = donationMessages.minimum(target.minimumCents);
    }
    if (tipRead === null) found.tipCents = donationMessages.tipRequired;
    else if ('error' in tipRead) found.tipCents = tipRead.error;
    else if (isPlatform && tipRead.cents < donationLimits.platformGiftMinCents)
      found.tipCents = donationMessages.platformGiftMin;
    return found;
  }

  function next() {
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    const input: PaymentIntentRequest = {
      name: name.trim(),
      email: email.trim(),
      donationCents,
      tipCents,
      projectId: target.kind === 'fundraiser' ? target.projectId : null,
    };
    createIntent.mutate(input, {
      onSuccess: (created) => {
        setIntent(created);
        setStep(1);
      },
      onError: (error) => {
        const fromServer: Errors = {};
        for (const item of formErrorsOf(error)) {
          if (item.field && ['name', 'email', 'donationCents', 'tipCents'].includes(item.field)) {
            fromServer[item.field as keyof Errors] = item.message;
          }
        }
        setErrors(fromServer);
      },
    });
  }

  const chooseTip = (choice: TipChoice) => {
    setTipChoice(choice);
    setErrors(({ tipCents: _dropped, ...rest }) => rest);
  };

  const returned = returning.data;
  if (returned && (returned.status === 'succeeded' || returned.status === 'processing')) {
    return <Navigate replace to={`${successPath}?payment_intent=${encodeURIComponent(returned.paymentIntentId)}`} />;
  }
  const returnedUnpaid = returned?.status === 'requires_payment_method' && createIntent.isIdle;

  return (
    <div className="donation-layout">
      <div className="donation-steps card">
        {step === 0 ? (
          <form
            className="form"
            noValidate
            aria-labelledby={`${id}-heading`}
            onSubmit={(event) => {
              event.preventDefault();
              next();
            }}
          >
            <h2 id={`${id}-heading`}>{isPlatform ? 'Your gift' : 'Your donation'}</h2>
            {returnedUnpaid && <Alert tone="error">{donationMessages.notSuccessful}</Alert>}
            {config.data?.provider === 'test' && (
              <TestModeBanner>The next step takes a test card, and nobody is charged.</TestModeBanner>
            )}
            {createIntent.isError && formErrorsOf(createIntent.error).length === 0 && (
              <Alert tone="error">{errorMessage(createIntent.error, 'Something went wrong! Please try again.')}</Alert>
            )}
            <FormField
              id={`${id}-name`}
              label="Name"
              autoComplete="name"
              value={name}
              error={errors.name}
              onChange={(event) => setName(event.target.value)}
            />
            <FormField
              id={`${id}-email`}
              label="Email"
              type="email"
              autoComplete="email"
              hint="Your receipt and the download link go here."
              value={email}
              error={errors.email}
              onChange={(event) => setEmail(event.target.value)}
            />
            {target.kind === 'fundraiser' && (
              <FormField
                id={`${id}-donationCents`}
                label="Donation"
                inputMode="decimal"
                className="money-field"
                hint={donationMessages.hint(target.minimumCents)}
                value={donationText}
                error={errors.donationCents}
                onChange={(event) => {
                  setDonationText(event.target.value);
                  // Typing a donation clears the preset (spec part 2 section 4).
                  if (tipChoice !== null && tipChoice !== 'none' && tipChoice !== 'custom') setTipChoice(null);
                }}
              />
            )}
            {isPlatform ? (
              <FormField
                id={`${id}-tipCents`}
                label="Amount"
                inputMode="decimal"
                className="money-field"
                hint="At least $1.00."
                value={customTipText}
                error={errors.tipCents}
                onChange={(event) => setCustomTipText(event.target.value)}
              />
            ) : (
              <fieldset
                className={`field tip-choices${errors.tipCents ? ' field-invalid' : ''}`}
                aria-describedby={`${id}-tip-hint${errors.tipCents ? ` ${id}-tip-error` : ''}`}
              >
                <legend>Tip</legend>
                <p className="field-hint" id={`${id}-tip-hint`}>
                  An optional tip keeps the site running; the charity&apos;s share stays the same.
                </p>
                <div className="tip-options">
                  <TipOption
                    id={`${id}-tipCents`}
                    choice="none"
                    current={tipChoice}
                    onChoose={chooseTip}
                    label="No tip"
                  />
                  {TIP_PRESETS.map((percent) => (
                    <TipOption
                      key={percent}
                      choice={`${percent}`}
                      current={tipChoice}
                      onChoose={chooseTip}
                      label={`${percent}%`}
                      disabled={presetsOff}
                    />
                  ))}
                  <TipOption choice="custom" current={tipChoice} onChoose={chooseTip} label="Custom" />
                </div>
                {tipChoice === 'custom' && (
                  <FormField
                    label="Custom tip"
                    inputMode="decimal"
                    className="money-field"
                    value={customTipText}
                    onChange={(event) => setCustomTipText(event.target.value)}
                  />
                )}
                {errors.tipCents && (
                  <p className="field-error" id={`${id}-tip-error`}>
                    {errors.tipCents}
                  </p>
                )}
              </fieldset>
            )}
            <div className="actions">
              <NetworkButton
                action="donate"
                type="submit"
                className="button button-primary"
                disabled={createIntent.isPending}
              >
                {createIntent.isPending ? 'Please wait...' : 'Next'}
              </NetworkButton>
            </div>
          </form>
        ) : (
          <section className="stack" aria-labelledby={`${id}-payment-heading`}>
            <div className="donation-payment-heading">
              <h2 id={`${id}-payment-heading`} tabIndex={-1} ref={(element) => element?.focus()}>
                Payment
              </h2>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setStep(0);
                  setIntent(null);
                }}
              >
                edit
              </button>
            </div>
            <p className="donation-payer">
              {name.trim()} · {email.trim()}
            </p>
            {!intent ? (
              <Alert tone="error">{donationMessages.missingIntent}</Alert>
            ) : config.isPending ? (
              <Spinner label="Loading the payment form" />
            ) : config.isError ? (
              <LoadFailure error={config.error} retry={config.refetch}>
                <Alert tone="error">{donationMessages.paymentFormFailed}</Alert>
              </LoadFailure>
            ) : config.data.provider === 'test' ? (
              <TestCardForm clientSecret={intent.clientSecret} successPath={successPath} />
            ) : (
              <Suspense fallback={<Spinner label="Loading the payment form" />}>
                <StripePaymentForm
                  publishableKey={config.data.publishableKey}
                  clientSecret={intent.clientSecret}
                  successPath={successPath}
                />
              </Suspense>
            )}
          </section>
        )}
      </div>
      <ShoppingSummary donationCents={donationCents} tipCents={tipCents} isPlatform={isPlatform} />
    </div>
  );
}

function TipOption({
  id,
  choice,
  current,
  onChoose,
  label,
  disabled = false,
}: {
  id?: string;
  choice: TipChoice;
  current: TipChoice | null;
  onChoose: (choice: TipChoice) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <button
      id={id}
      type="button"
      className={`tip-option${current === choice ? ' tip-option-chosen' : ''}`}
      aria-pressed={current === choice}
      disabled={disabled}
      onClick={() => onChoose(choice)}
    >
      {label}
    </button>
  );
}

/** Donation, tip and total in dollars with two decimals (spec part 2 section 2). */
function ShoppingSummary({
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
