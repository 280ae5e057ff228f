import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatCents, parseDollarsToCents } from '../../../shared/money';
import { adminMoneyMessages, disbursementLimits, manualDisbursementSchema } from '../../../shared/schemas/admin-money';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { nonprofitQueryOptions } from '../../api/fundraisers';
import { errorMessage, formErrorsOf } from '../../api/http';
import { useFlash } from '../../lib/flash';
import { usePageTitle, useSite } from '../../lib/site';
import { siteCalendarDate } from '../../../shared/site-dates';
import { Alert } from '../../ui/alert';
import { FormField, TextareaField } from '../../ui/form-field';
import { summariesQueryOptions, useRecordManualDisbursement } from './admin-money-api';
import { NetworkButton } from '../../ui/needs-network';
import './admin-money.css';

// /admin/disbursements/new (spec part 2 sections 2, 3 and 5, Manual disbursement): money already
// paid to a charity some other way (a cheque, a bank transfer), recorded as COMPLETE. Not limited
// by what is outstanding; the form says what is, so a typo stands out.

const fields = ['ein', 'charityName', 'amountCents', 'finalizedAt', 'notes'] as const;
type Field = (typeof fields)[number];
type Errors = Partial<Record<Field, string>>;

export function ManualDisbursementPage() {
  usePageTitle('Record a manual disbursement');
  const id = useId();
  const navigate = useNavigate();
  const showFlash = useFlash((state) => state.show);
  const [searchParams] = useSearchParams();
  const [ein, setEin] = useState(searchParams.get('ein') ?? '');
  const [charityName, setCharityName] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  // Dates paid are days of the site's calendar (SITE_TIME_ZONE), as the ledger shows them: its
  // today is the latest the server takes, wherever the admin is.
  const { timeZone } = useSite();
  const [siteToday] = useState(() => siteCalendarDate(Date.now(), timeZone));
  const [finalizedAt, setFinalizedAt] = useState(siteToday);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const record = useRecordManualDisbursement();

  const einDigits = normaliseEin(ein);
  const summaries = useQuery(summariesQueryOptions);
  const known = summaries.data?.results.find((summary) => summary.ein === einDigits);
  // The directory names a charity nobody has donated to yet; admins may still type another name.
  const directory = useQuery({ ...nonprofitQueryOptions(einDigits ?? ''), enabled: einDigits !== null && !known });
  const suggestedName = known?.charityName ?? directory.data?.nonprofit.name ?? '';
  const shownName = charityName ?? suggestedName;

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseDollarsToCents(amount);
    const input = { ein, charityName: shownName, amountCents: cents ?? Number.NaN, notes, finalizedAt };
    const checked = manualDisbursementSchema.safeParse(input);
    const found: Errors = {};
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
    }
    if (cents === null) found.amountCents = 'Amount must be an amount in dollars, like 250 or 250.00';
    setErrors(found);
    const first = fields.find((field) => found[field]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    record.mutate(input, {
      onSuccess: ({ disbursement }) => {
        const where = `/admin/disbursements?ein=${disbursement.ein}`;
        showFlash(
          `Recorded ${formatCents(disbursement.amountCents)} paid to ${disbursement.charityName}.`,
          '/admin/disbursements',
        );
        void navigate(where);
      },
      onError: (error) => {
        const fromServer: Errors = {};
        for (const item of formErrorsOf(error)) {
          if (item.field && (fields as readonly string[]).includes(item.field))
            fromServer[item.field as Field] = item.message;
        }
        setErrors(fromServer);
      },
    });
  }

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
          id={`${id}-ein`}
          label="EIN"
          inputMode="numeric"
          autoComplete="off"
          hint="The charity's 9-digit EIN, like 12-3456789."
          value={ein}
          error={errors.ein}
          onChange={(event) => setEin(event.target.value)}
          onBlur={() => einDigits && setEin(formatEin(einDigits))}
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
          id={`${id}-charityName`}
          label="Charity name"
          value={shownName}
          error={errors.charityName}
          maxLength={disbursementLimits.charityNameMax}
          onChange={(event) => setCharityName(event.target.value)}
        />
        <FormField
          id={`${id}-amountCents`}
          label="Amount"
          inputMode="decimal"
          className="money-field"
          hint="From $0.01 to $100,000.00."
          value={amount}
          error={errors.amountCents}
          onChange={(event) => setAmount(event.target.value)}
        />
        <FormField
          id={`${id}-finalizedAt`}
          label="Date paid"
          type="date"
          max={siteToday}
          value={finalizedAt}
          error={errors.finalizedAt}
          onChange={(event) => setFinalizedAt(event.target.value)}
        />
        <TextareaField
          id={`${id}-notes`}
          label="Notes"
          rows={4}
          hint={`Optional: how it was paid, a cheque or transfer number. Maximum ${disbursementLimits.notesMax} characters.`}
          value={notes}
          error={errors.notes}
          onChange={(event) => setNotes(event.target.value)}
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
