import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { FormProvider, useWatch } from 'react-hook-form';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { donationMessages, donationOf, tipOf } from '../../../shared/donation-rules';
import { feeCoverCents } from '../../../shared/fee-cover';
import { EMBED_SOURCE } from '../../../shared/embed';
import { siteCalendarDate } from '../../../shared/site-dates';
import type { PaymentIntentRequest } from '../../../shared/schemas/donations';
import { errorMessage, formErrorsOf } from '../../api/http';
import { useSite } from '../../lib/site';
import { loadInIdleTurns } from '../../lib/page-settled';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { useUser } from '../../lib/session';
import { Alert } from '../../ui/alert';
import { CheckboxField, FormField } from '../../ui/form-field';
import { NetworkButton } from '../../ui/needs-network';
import { Spinner } from '../../ui/spinner';
import { useLazyZodForm } from '../../ui/use-lazy-zod-form';
import { applyServerFormErrors } from '../../ui/use-zod-form';
import { paymentConfigQueryOptions, returningPaymentQueryOptions, useCreatePaymentIntent } from './donations-api';
import { donatedToday, type DonationMemo } from './recent-donations';
import { ShoppingSummary } from './shopping-summary';
import { TestModeBanner } from './test-mode-banner';
import { GiftFields } from './gift-fields';
import { TipChoices } from './tip-choices';
import { LoadFailure } from '../../ui/offline-notice';

// The donation form (spec part 2 sections 2, 4 and 5): step 0 who gives what, step 1 the payment,
// with the shopping summary beside both. The same flow gives to a fundraiser (the donate page) and
// to the platform itself (the support page: a tip only). The server decides; this shows the same
// rules as the donor types, with the same schema and messages.

const StripePaymentForm = lazy(() => import('./stripe-payment-form'));
// Not part of the donate page's first load (issue 24), each fetched once the donor starts filling
// the form in, ready before they press Next: the form's schema (and zod with it), the test card's
// form, and the dialog asked only before a large tip or a second donation the same day (Radix, its
// focus trap and scroll lock). The page draws and sums up the donation with the rules alone
// (shared/donation-rules.ts).
const loadSchemas = () => import('../../../shared/schemas/donations');
const loadTestCardForm = () => import('./test-card-form');
const loadDialog = () => import('../../ui/dialog');
const TestCardForm = lazy(() => loadTestCardForm().then((m) => ({ default: m.TestCardForm })));
const ConfirmDialog = lazy(() => loadDialog().then((m) => ({ default: m.ConfirmDialog })));

export type DonationTarget = { kind: 'fundraiser'; projectId: number; minimumCents: number } | { kind: 'platform' };

const FIELDS = [
  'name',
  'email',
  'donationCents',
  'tipCents',
  'coverFees',
  'gift.recipientName',
  'gift.recipientEmail',
  'gift.message',
  'gift.deliverOn',
] as const;

type Intent = {
  clientSecret: string;
  paymentIntentId: string;
  /** What the card is charged, as the server made the intent: donation + tip + fee cover. */
  totalCents: number;
  feeCoverCents: number;
  memo: DonationMemo | null;
};

/** What the donor is asked before paying (issue 22), with the payment it would go on to. */
type Question = { kind: 'large-tip' | 'donated-today'; input: PaymentIntentRequest; question: string };

export function DonationForm({ target }: { target: DonationTarget }) {
  const user = useUser();
  const { siteName, timeZone } = useSite();
  // The site's today, which a gift's delivery date counts from (the server checks it again): asked
  // when a gift's date is checked, not as the page draws (the first answer in a zone is costly).
  const today = useCallback(() => siteCalendarDate(Date.now(), timeZone), [timeZone]);
  const queryClient = useQueryClient();
  // Spec part 2 section 4, Payment: the payment returns to the current page's path + '/success'
  // (/projects/{id}/donate comes back to /projects/{id}/donate/success, whichever the donor used).
  const { pathname } = useLocation();
  const successPath = `${pathname.replace(/\/+$/, '')}/success`;
  const id = useId();
  const fundraiserId = target.kind === 'fundraiser' ? target.projectId : null;
  const minimumCents = target.kind === 'fundraiser' ? target.minimumCents : null;
  const loadSchema = useCallback(
    () => loadSchemas().then((schemas) => schemas.donationFormSchema(minimumCents, today)),
    [minimumCents, today],
  );
  const form = useLazyZodForm(loadSchema, {
    name: user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '',
    email: user?.email ?? '',
    donationCents: '',
    tipChoice: target.kind === 'platform' ? 'custom' : null,
    tipCents: '',
    coverFees: false,
    isGift: false,
    gift: { recipientName: '', recipientEmail: '', message: '', deliverOn: '' },
  });
  const [step, setStep] = useState<0 | 1>(0);
  const [intent, setIntent] = useState<Intent | null>(null);
  const [asking, setAsking] = useState<Question | null>(null);
  const askedBefore = useHasBeenTrue(asking !== null);
  useEffect(
    () => loadInIdleTurns(loadSchemas, () => import('@hookform/resolvers/zod'), loadTestCardForm, loadDialog),
    [],
  );
  // What the donor already said yes to, so 'edit' and Next do not ask again.
  const [keptTipCents, setKeptTipCents] = useState<number | null>(null);
  const [againFor, setAgainFor] = useState<string | null>(null);
  const changingTip = useRef(false);
  // 'edit' leaves the payment step, whose button held the focus: it goes to the form's heading.
  const backToForm = useRef(false);
  const createIntent = useCreatePaymentIntent();
  const config = useQuery(paymentConfigQueryOptions);
  // Stripe's names for the intent a donor comes back with (see the success page).
  const [params] = useSearchParams();
  const returning = useQuery(
    returningPaymentQueryOptions(config.data, params.get('payment_intent_client_secret') ?? ''),
  );

  const [donationText, tipChoice, tipText, coverFees, isGift, recipientName] = useWatch({
    control: form.control,
    name: ['donationCents', 'tipChoice', 'tipCents', 'coverFees', 'isGift', 'gift.recipientName'],
  });
  const donationCents = target.kind === 'fundraiser' ? donationOf(donationText) : 0;
  const tip = tipOf(tipChoice, tipText, donationCents);
  const tipCents = 'cents' in tip ? tip.cents : 0;
  // The cover as the server will work it out (shared/fee-cover.ts); the payment step shows the
  // server's own figure.
  const feeRates = config.data?.feeRates;
  const possibleCoverCents = feeRates ? feeCoverCents(donationCents, tipCents, feeRates) : 0;
  const coverCents = coverFees ? possibleCoverCents : 0;

  function pay(input: PaymentIntentRequest) {
    setAsking(null);
    createIntent.mutate(input, {
      onSuccess: (created) => {
        const memo =
          fundraiserId === null
            ? null
            : {
                paymentIntentId: created.paymentIntentId,
                fundraiserId,
                email: input.email,
                donationCents: input.donationCents,
              };
        setIntent({ ...created, totalCents: created.amountCents, memo });
        setStep(1);
      },
      onError: (error) => {
        applyServerFormErrors(form, formErrorsOf(error), FIELDS);
      },
    });
  }

  /** Paying what this browser paid the same fundraiser from the same email today asks first. */
  async function payUnlessDonatedToday(input: PaymentIntentRequest) {
    if (fundraiserId !== null && againFor !== input.email) {
      const before = await donatedToday(queryClient, fundraiserId, input.email);
      if (before !== null) {
        setAsking({ kind: 'donated-today', input, question: donationMessages.donatedToday(before) });
        return;
      }
    }
    pay(input);
  }

  const submit = form.handleSubmit(
    async (values) => {
      // A donor who came from the embedded player (its Donate link says so) is counted as such.
      const source = params.get('source') === EMBED_SOURCE ? EMBED_SOURCE : null;
      const input: PaymentIntentRequest = { ...values, projectId: fundraiserId, source };
      // A custom tip above the donation is more likely a slip than a wish: asked before paying.
      const custom = form.getValues('tipChoice') === 'custom';
      const largeTip = custom && fundraiserId !== null && input.tipCents > input.donationCents;
      if (largeTip && keptTipCents !== input.tipCents) {
        setAsking({ kind: 'large-tip', input, question: donationMessages.largeTip(siteName, input.tipCents) });
        return;
      }
      await payUnlessDonatedToday(input);
    },
    (errors) => {
      // The tip buttons are no field react-hook-form can focus: its first one stands for them.
      // react-hook-form focuses the first field in error; the tip comes after name, email and donation.
      const tipFirst = errors.tipCents && !errors.name && !errors.email && !errors.donationCents;
      if (tipFirst && tipChoice !== 'custom') document.getElementById(`${id}-tipChoice`)?.focus();
    },
  );

  const returned = returning.data;
  if (returned && (returned.status === 'succeeded' || returned.status === 'processing')) {
    return <Navigate replace to={`${successPath}?payment_intent=${encodeURIComponent(returned.paymentIntentId)}`} />;
  }
  const returnedUnpaid = returned?.status === 'requires_payment_method' && createIntent.isIdle;
  const { errors } = form.formState;

  return (
    <div className="donation-layout">
      <div className="donation-steps card">
        {step === 0 ? (
          <FormProvider {...form}>
            <form className="form" noValidate aria-labelledby={`${id}-heading`} onSubmit={submit}>
              <h2
                id={`${id}-heading`}
                tabIndex={-1}
                ref={(element) => {
                  if (!element || !backToForm.current) return;
                  backToForm.current = false;
                  element.focus();
                }}
              >
                {target.kind === 'platform' ? 'Your gift' : 'Your donation'}
              </h2>
              {returnedUnpaid && <Alert tone="error">{donationMessages.notSuccessful}</Alert>}
              {config.data?.provider === 'test' && (
                <TestModeBanner>The next step takes a test card, and nobody is charged.</TestModeBanner>
              )}
              {createIntent.isError && formErrorsOf(createIntent.error).length === 0 && (
                <Alert tone="error">
                  {errorMessage(createIntent.error, 'Something went wrong! Please try again.')}
                </Alert>
              )}
              <FormField
                id={`${id}-name`}
                label="Name"
                autoComplete="name"
                error={errors.name?.message}
                {...form.register('name')}
              />
              <FormField
                id={`${id}-email`}
                label="Email"
                type="email"
                autoComplete="email"
                hint={isGift ? 'Your receipt goes here.' : 'Your receipt and the download link go here.'}
                error={errors.email?.message}
                {...form.register('email')}
              />
              {target.kind === 'fundraiser' ? (
                <>
                  <FormField
                    id={`${id}-donationCents`}
                    label="Donation"
                    inputMode="decimal"
                    autoComplete="off"
                    className="money-field"
                    hint={donationMessages.hint(target.minimumCents)}
                    error={errors.donationCents?.message}
                    {...form.register('donationCents', {
                      // Typing a donation clears the preset (spec part 2 section 4).
                      onChange: () => {
                        const chosen = form.getValues('tipChoice');
                        if (chosen !== null && chosen !== 'none' && chosen !== 'custom')
                          form.setValue('tipChoice', null);
                      },
                    })}
                  />
                  <TipChoices id={id} presetsOff={donationCents === 0} />
                  <CheckboxField
                    id={`${id}-coverFees`}
                    // The figures once there are both a donation and the rates to work them out at.
                    label={
                      feeRates && donationCents > 0
                        ? donationMessages.coverFees(donationCents, possibleCoverCents)
                        : donationMessages.coverFeesUnknown
                    }
                    hint="The card processor takes a fee from every payment; this adds it on top, for the charity."
                    error={errors.coverFees?.message}
                    {...form.register('coverFees')}
                  />
                  <GiftFields id={id} today={today} />
                </>
              ) : (
                <FormField
                  id={`${id}-tipCents`}
                  label="Amount"
                  inputMode="decimal"
                  autoComplete="off"
                  className="money-field"
                  hint="At least $1.00."
                  error={errors.tipCents?.message}
                  {...form.register('tipCents')}
                />
              )}
              <div className="actions">
                <NetworkButton
                  action="donate"
                  type="submit"
                  className="button button-primary"
                  disabled={createIntent.isPending || form.formState.isSubmitting}
                >
                  {createIntent.isPending ? 'Please wait...' : 'Next'}
                </NetworkButton>
              </div>
            </form>
          </FormProvider>
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
                  backToForm.current = true;
                  setStep(0);
                  setIntent(null);
                }}
              >
                edit
              </button>
            </div>
            <p className="donation-payer">
              {form.getValues('name').trim()} · {form.getValues('email').trim()}
              {isGift && recipientName.trim() && (
                <>
                  <br />
                  Gift for {recipientName.trim()}
                </>
              )}
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
              <Suspense fallback={<Spinner label="Loading the payment form" />}>
                <TestCardForm
                  clientSecret={intent.clientSecret}
                  successPath={successPath}
                  totalCents={intent.totalCents}
                  memo={intent.memo}
                />
              </Suspense>
            ) : (
              <Suspense fallback={<Spinner label="Loading the payment form" />}>
                <StripePaymentForm
                  publishableKey={config.data.publishableKey}
                  clientSecret={intent.clientSecret}
                  successPath={successPath}
                  totalCents={intent.totalCents}
                  memo={intent.memo}
                />
              </Suspense>
            )}
          </section>
        )}
      </div>
      <ShoppingSummary
        donationCents={donationCents}
        tipCents={tipCents}
        coverCents={intent && step === 1 ? intent.feeCoverCents : coverCents}
        // On the payment step, the total the card is charged, as the server made the intent.
        totalCents={intent && step === 1 ? intent.totalCents : undefined}
        isPlatform={target.kind === 'platform'}
      />
      {askedBefore && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={asking?.kind === 'large-tip'}
            title="Keep this tip?"
            question={asking?.question ?? ''}
            cancelLabel="Change tip"
            confirmLabel="Keep tip"
            onCancel={() => {
              changingTip.current = true;
              setAsking(null);
            }}
            onConfirm={() => {
              if (!asking) return;
              setKeptTipCents(asking.input.tipCents);
              setAsking(null);
              void payUnlessDonatedToday(asking.input);
            }}
            onCloseAutoFocus={(event) => {
              // Changing it goes back to the custom tip; keeping it goes on to the payment.
              if (!changingTip.current) return;
              changingTip.current = false;
              event.preventDefault();
              form.setFocus('tipCents', { shouldSelect: true });
            }}
          />
          <ConfirmDialog
            open={asking?.kind === 'donated-today'}
            title="Donated today"
            question={asking?.question ?? ''}
            cancelLabel="Cancel"
            confirmLabel="Donate again"
            onCancel={() => setAsking(null)}
            onConfirm={() => {
              if (!asking) return;
              setAgainFor(asking.input.email);
              pay(asking.input);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
