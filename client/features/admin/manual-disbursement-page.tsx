import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money';
import * as z from 'zod/mini';
import {
  adminMoneyMessages,
  disbursementLimits,
  manualDisbursementFormSchema,
  type ManualDisbursementInput,
} from '../../../shared/schemas/admin-money';
import { ApiError } from '../../api/errors';
import { Dialog } from '../../ui/dialog';
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
// paid to a charity some other way (a cheque, a bank transfer), recorded as COMPLETE. The form
// says what is outstanding, so a typo stands out; more than that is recorded only once the admin
// confirms it (issue 23: the server refuses it first, and records the override).

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
  // A charity in the directory is recorded under its record's name (the server takes it from
  // there); only one the directory does not know is named by the admin.
  const directory = useQuery({ ...nonprofitQueryOptions(einDigits ?? ''), enabled: einDigits !== null });
  const recordName = directory.data?.nonprofit.name;
  const suggestedName = recordName ?? known?.charityName ?? '';
  useEffect(() => {
    // The EIN names the charity until the admin writes a name of their own (a record's name stays).
    if (form.getFieldState('charityName').isDirty && !recordName) return;
    form.setValue('charityName', suggestedName, { shouldValidate: isSubmitted });
  }, [form, suggestedName, recordName, isSubmitted]);

  const einField = form.register('ein', {
    onBlur: () => einDigits && form.setValue('ein', formatEin(einDigits)),
  });

  // A payment over what is outstanding, refused until the admin confirms it.
  const [overOutstanding, setOverOutstanding] = useState<{
    input: ManualDisbursementInput;
    outstandingCents: number;
  } | null>(null);
  const send = (input: ManualDisbursementInput) =>
    record.mutate(input, {
      onSuccess: ({ disbursement }) => {
        showFlash(
          `Recorded ${formatCents(disbursement.amountCents)} paid to ${disbursement.charityName}.`,
          '/admin/disbursements',
        );
        void navigate(`/admin/disbursements?ein=${disbursement.ein}`);
      },
      onError: (error) => {
        const outstandingCents = outstandingOf(error);
        if (outstandingCents !== null && !input.overrideOutstanding) {
          setOverOutstanding({ input, outstandingCents });
          return;
        }
        applyServerFormErrors(form, formErrorsOf(error), FIELDS);
      },
    });
  const submit = form.handleSubmit((input) => send({ ...input, overrideOutstanding: false }));

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
        {record.isError && formErrorsOf(record.error).length === 0 && outstandingOf(record.error) === null && (
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
          // once the giving site's disbursement completes: the server refuses it until then.
          <Alert tone="warning" title="A disbursement is pending for this charity">
            A disbursement to {known.charityName} through the giving site has not been completed, canceled or marked
            failed yet. End it in the <Link to={`/admin/disbursements?ein=${known.ein}`}>disbursement history</Link>{' '}
            first: if this payment is that money, mark it complete there instead of recording it here.
          </Alert>
        )}
        <FormField
          label="Charity name"
          maxLength={disbursementLimits.charityNameMax}
          readOnly={recordName !== undefined}
          hint={recordName !== undefined ? "From the charity's record in the directory." : undefined}
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
      {overOutstanding && (
        <Dialog
          open
          onOpenChange={(open) => !open && setOverOutstanding(null)}
          title="Record more than is outstanding?"
          className="dialog-narrow"
        >
          <div className="dialog-body stack">
            <p>
              <strong>{formatCents(overOutstanding.input.amountCents)}</strong> is more than the{' '}
              <strong>{formatCents(overOutstanding.outstandingCents)}</strong> outstanding for{' '}
              {overOutstanding.input.charityName}. Record it only if that much really was paid: the charity will show as
              overpaid by {formatCents(overOutstanding.input.amountCents - overOutstanding.outstandingCents)}, and the
              disbursement keeps a note that you confirmed it.
            </p>
            <div className="dialog-actions">
              <button type="button" className="button button-ghost" onClick={() => setOverOutstanding(null)}>
                Go back
              </button>
              <NetworkButton
                action="record the disbursement"
                type="button"
                className="button button-primary"
                disabled={record.isPending}
                onClick={() => {
                  send({ ...overOutstanding.input, overrideOutstanding: true });
                  setOverOutstanding(null);
                }}
              >
                Record anyway
              </NetworkButton>
            </div>
          </div>
        </Dialog>
      )}
    </div>
  );
}

const incorrectAmountSchema = z.object({ outstandingAmountCents: z.int() });

/** What is outstanding, when the server refused the amount as more than that. */
function outstandingOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'INCORRECT_DISBURSEMENT_AMOUNT') return null;
  const details = incorrectAmountSchema.safeParse(error.body);
  return details.success ? details.data.outstandingAmountCents : null;
}
