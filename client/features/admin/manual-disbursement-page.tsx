import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money';
import {
  adminMoneyMessages,
  disbursementLimits,
  manualDisbursementFormSchema,
} from '../../../shared/schemas/admin-money';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { siteCalendarDate } from '../../../shared/site-dates';
import { nonprofitQueryOptions } from '../../api/fundraisers';
import { errorMessage, formErrorsOf } from '../../api/http';
import { useFlash } from '../../lib/flash';
import { usePageTitle, useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { FormField, TextareaField } from '../../ui/form-field';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { summariesQueryOptions, useRecordManualDisbursement } from './admin-money-api';
import { NetworkButton } from '../../ui/needs-network';
import './admin-money.css';

// /admin/disbursements/new (spec part 2 sections 2, 3 and 5, Manual disbursement): money already
// paid to a charity some other way (a cheque, a bank transfer), recorded as COMPLETE. Not limited
// by what is outstanding; the form says what is, so a typo stands out.

const FIELDS = ['ein', 'charityName', 'amountCents', 'finalizedAt', 'notes'] as const;

export function ManualDisbursementPage() {
  usePageTitle('Record a manual disbursement');
  const navigate = useNavigate();
  const showFlash = useFlash((state) => state.show);
  const [searchParams] = useSearchParams();
  // Dates paid are days of the site's calendar (SITE_TIME_ZONE), as the ledger shows them: its
  // today is the latest the server takes, wherever the admin is.
  const { timeZone } = useSite();
  const [siteToday] = useState(() => siteCalendarDate(Date.now(), timeZone));
  // The disbursements tab links here with ?ein= (digits): shown as people write an EIN.
  const linked = searchParams.get('ein') ?? '';
  const linkedDigits = normaliseEin(linked);
  const form = useZodForm(manualDisbursementFormSchema, {
    ein: linkedDigits ? formatEin(linkedDigits) : linked,
    charityName: '',
    amountCents: '',
    finalizedAt: siteToday,
    notes: '',
  });
  const { errors, isSubmitted } = form.formState;
  const record = useRecordManualDisbursement();

  const einDigits = normaliseEin(form.watch('ein'));
  const summaries = useQuery(summariesQueryOptions);
  const known = summaries.data?.results.find((summary) => summary.ein === einDigits);
  // The directory names a charity nobody has donated to yet; admins may still type another name.
  const directory = useQuery({ ...nonprofitQueryOptions(einDigits ?? ''), enabled: einDigits !== null && !known });
  const suggestedName = known?.charityName ?? directory.data?.nonprofit.name ?? '';
  useEffect(() => {
    // The EIN names the charity until the admin writes a name of their own.
    if (form.getFieldState('charityName').isDirty) return;
    form.setValue('charityName', suggestedName, { shouldValidate: isSubmitted });
  }, [form, suggestedName, isSubmitted]);

  const einField = form.register('ein', {
    onBlur: () => einDigits && form.setValue('ein', formatEin(einDigits)),
  });

  const submit = form.handleSubmit((input) =>
    record.mutate(input, {
      onSuccess: ({ disbursement }) => {
        showFlash(
          `Recorded ${formatCents(disbursement.amountCents)} paid to ${disbursement.charityName}.`,
          '/admin/disbursements',
        );
        void navigate(`/admin/disbursements?ein=${disbursement.ein}`);
      },
      onError: (error) => applyServerFormErrors(form, formErrorsOf(error), FIELDS),
    }),
  );

  return (
    <div className="page narrow stack">
      <p>
        <Link to="/admin/disbursements">← Disbursements</Link>
      </p>
      <h1>Record a manual disbursement</h1>
      <p className="lead">
        For money already paid to a charity outside the giving site, such as a cheque or a bank transfer. It counts as
        paid out at once.
      </p>
      <form className="form card admin-form" noValidate onSubmit={submit}>
        {record.isError && formErrorsOf(record.error).length === 0 && (
          <Alert tone="error">{errorMessage(record.error, adminMoneyMessages.generic)}</Alert>
        )}
        <FormField
          label="EIN"
          inputMode="numeric"
          autoComplete="off"
          hint="The charity's 9-digit EIN, like 12-3456789."
          error={errors.ein?.message}
          {...einField}
        />
        {known && (
          <p className="field-hint" role="status">
            Outstanding for {known.charityName}: <strong>{formatCents(known.outstandingCents)}</strong>
          </p>
        )}
        {known?.hasPending && (
          // Recording the same money twice would pay it twice on the books (and on the ledger)
          // once the giving site's disbursement completes: say so, and let the admin decide.
          <Alert tone="warning" title="A disbursement is pending for this charity">
            A disbursement to {known.charityName} through the giving site has not been completed or canceled yet. If
            this payment is that money, complete or cancel the pending one in the{' '}
            <Link to={`/admin/disbursements?ein=${known.ein}`}>disbursement history</Link> instead of recording it here,
            or it will count twice.
          </Alert>
        )}
        <FormField
          label="Charity name"
          maxLength={disbursementLimits.charityNameMax}
          error={errors.charityName?.message}
          {...form.register('charityName')}
        />
        <FormField
          label="Amount"
          inputMode="decimal"
          className="money-field"
          hint="From $0.01 to $100,000.00."
          error={errors.amountCents?.message}
          {...form.register('amountCents')}
        />
        <FormField
          label="Date paid"
          type="date"
          max={siteToday}
          error={errors.finalizedAt?.message}
          {...form.register('finalizedAt')}
        />
        <TextareaField
          label="Notes"
          rows={4}
          hint={`Optional: how it was paid, a cheque or transfer number. Maximum ${disbursementLimits.notesMax} characters.`}
          error={errors.notes?.message}
          {...form.register('notes')}
        />
        <div className="actions">
          <NetworkButton
            action="record the disbursement"
            type="submit"
            className="button button-primary"
            disabled={record.isPending}
          >
            {record.isPending ? 'Saving...' : 'Record disbursement'}
          </NetworkButton>
          <Link className="button button-ghost" to="/admin/disbursements">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
