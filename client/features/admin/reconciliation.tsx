import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money';
import type { Reconciliation } from '../../../shared/answers/admin-money';
import { adminMoneyMessages, reconciliationParamsSchema } from '../../../shared/schemas/admin-money';
import { addDays, formatSiteDate, siteCalendarDate } from '../../../shared/site-dates';
import { errorMessage } from '../../api/http';
import { useSite } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { NetworkLink } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';
import { Spinner } from '../../ui/spinner';
import { reconciliationQueryOptions } from './admin-money-api';
import '../../ui/table-cards.css';
import './admin-money.css';
import { formatCount } from '../../../shared/format-count';

// The Reconciliation tab (issue 23; DESIGN.md "Contract details for wave 3", reconciliation): the
// money journal against the payment processor's own record of its balance for a period of the
// site's calendar days, what differs first. The server dates each difference as a day of the site's
// calendar, written here as that day (read as UTC, so no zone moves it). The period is in the address, so a finding can be
// shared with whoever does the books.

type Difference = Reconciliation['differences'][number];

const kindLabel: Record<Difference['kind'], string> = {
  charge: 'Payment',
  fee: 'Processor fee',
  refund: 'Refund',
  refund_failure: 'Failed refund',
  dispute: 'Dispute',
  dispute_fee: 'Dispute fee',
};

export function ReconciliationAdmin() {
  const headingId = useId();
  const { timeZone } = useSite();
  const [searchParams, setSearchParams] = useSearchParams();
  // The last 30 days of the site's calendar, unless the address says otherwise.
  const [defaults] = useState(() => {
    const today = siteCalendarDate(Date.now(), timeZone);
    return { from: addDays(today, -29), to: today };
  });
  const period = { from: searchParams.get('from') ?? defaults.from, to: searchParams.get('to') ?? defaults.to };
  const checked = reconciliationParamsSchema.safeParse(period);
  const [draft, setDraft] = useState(period);
  const [draftError, setDraftError] = useState<{ field: 'from' | 'to'; message: string } | null>(null);
  const reconciliation = useQuery({
    ...reconciliationQueryOptions(period.from, period.to),
    enabled: checked.success,
  });

  const compare = (event: FormEvent) => {
    event.preventDefault();
    const next = reconciliationParamsSchema.safeParse(draft);
    if (!next.success) {
      const issue = next.error.issues[0]!;
      setDraftError({ field: issue.path[0] === 'from' ? 'from' : 'to', message: issue.message });
      return;
    }
    setDraftError(null);
    setSearchParams(next.data, { preventScrollReset: true });
  };

  const csv = `/api/admin/reconciliation.csv?from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <h2 id={headingId}>Reconciliation</h2>
        {checked.success && (
          <NetworkLink action="download the differences" className="button button-secondary" href={csv} download>
            Download differences (CSV)
          </NetworkLink>
        )}
      </div>
      <p className="admin-muted">
        Every payment, fee, refund and dispute the site recorded, matched one by one with the payment processor&rsquo;s
        balance for the same days. What differs is listed first.
      </p>
      <form className="admin-period" noValidate onSubmit={compare}>
        <FormField
          label="From"
          type="date"
          value={draft.from}
          max={defaults.to}
          error={draftError?.field === 'from' ? draftError.message : undefined}
          onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
        />
        <FormField
          label="To"
          type="date"
          value={draft.to}
          max={defaults.to}
          error={draftError?.field === 'to' ? draftError.message : undefined}
          onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
        />
        <button type="submit" className="button button-primary">
          Compare
        </button>
      </form>
      {!checked.success ? (
        <Alert tone="error">{checked.error.issues[0]!.message}</Alert>
      ) : reconciliation.isPending ? (
        <Spinner label="Comparing with the payment processor" />
      ) : reconciliation.isError ? (
        <LoadFailure error={reconciliation.error} retry={reconciliation.refetch}>
          <Alert tone="error">{errorMessage(reconciliation.error, adminMoneyMessages.reconciliationFailed)}</Alert>
        </LoadFailure>
      ) : (
        <ReconciliationResult result={reconciliation.data} headingId={headingId} />
      )}
    </div>
  );
}

function ReconciliationResult({ result, headingId }: { result: Reconciliation; headingId: string }) {
  const processor = result.provider === 'stripe' ? 'Stripe' : "the test provider's records";
  const matched = `${formatCount(result.matched)} ${result.matched === 1 ? 'movement' : 'movements'}`;
  if (result.differences.length === 0) {
    return (
      <Alert tone="success" title="Everything matches">
        {result.matched === 0
          ? `No money moved from ${result.from} to ${result.to}, here or at ${processor}.`
          : `All ${matched} from ${result.from} to ${result.to} agree with ${processor} to the cent.`}
      </Alert>
    );
  }
  const count = result.differences.length;
  return (
    <div className="stack">
      <Alert tone="warning" title={`${count} ${count === 1 ? 'difference' : 'differences'} with ${processor}`}>
        {matched} agree to the cent. A movement missing on one side shows $0.00 there: one the processor has not settled
        yet (a fee still pending) lines up within a day or two; one still missing after that needs a look.
      </Alert>
      <div className="admin-table-frame" tabIndex={0} role="region" aria-labelledby={headingId}>
        <table className="admin-table admin-cards table-cards">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">What</th>
              <th scope="col">Processor&rsquo;s id</th>
              <th scope="col" className="number">
                Ours
              </th>
              <th scope="col" className="number">
                {result.provider === 'stripe' ? 'Stripe' : 'Provider'}
              </th>
              <th scope="col" className="number">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            {result.differences.map((difference) => (
              <tr key={`${difference.kind} ${difference.providerId}`}>
                <td data-label="Date">
                  <time dateTime={difference.date}>{formatSiteDate(`${difference.date}T00:00:00Z`, 'UTC')}</time>
                </td>
                <td data-label="What">{kindLabel[difference.kind]}</td>
                <td data-label="Processor's id" className="admin-wrap">
                  <code>{difference.providerId}</code>
                </td>
                <td className="number" data-label="Ours">
                  {formatCents(difference.oursCents)}
                </td>
                <td className="number" data-label={result.provider === 'stripe' ? 'Stripe' : 'Provider'}>
                  {formatCents(difference.theirsCents)}
                </td>
                <td className="number admin-negative" data-label="Difference">
                  {formatCents(difference.oursCents - difference.theirsCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
