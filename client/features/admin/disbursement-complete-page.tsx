import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminMoneyMessages, CALLBACK_ACTIONS, type CallbackAction } from '../../../shared/schemas/admin-money';
import { errorMessage } from '../../api/http';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { Spinner } from '../../ui/spinner';
import { useDisbursementCallback } from './admin-money-api';
import { LoadFailure } from '../../ui/offline-notice';

// /admin/disbursement-complete (spec part 2 sections 2 and 5, Disbursement callback): where the
// giving site sends the admin back, with action, callbackSecret and disbursementId. It reports
// once to the server (the secret works once), then shows what happened.

function readCallback(params: URLSearchParams) {
  const action = params.get('action');
  const callbackSecret = params.get('callbackSecret');
  const disbursementId = params.get('disbursementId');
  if (!action || !callbackSecret || !disbursementId) return null;
  if (!(CALLBACK_ACTIONS as readonly string[]).includes(action) || !/^\d+$/.test(disbursementId)) return null;
  return { action: action as CallbackAction, callbackSecret, id: Number(disbursementId) };
}

export function DisbursementCompletePage() {
  usePageTitle('Disbursement');
  const [params] = useSearchParams();
  const callback = readCallback(params);
  const report = useDisbursementCallback();
  const reported = useRef(false);

  useEffect(() => {
    // Once per visit, even when React runs effects twice: a second report would be refused.
    if (!callback || reported.current) return;
    reported.current = true;
    report.mutate(callback);
  }, [callback, report]);

  const back = report.data ? `/admin/disbursements?ein=${report.data.disbursement.ein}` : '/admin/disbursements';
  return (
    <div className="page narrow stack">
      <h1>Disbursement</h1>
      {!callback ? (
        <Alert tone="warning">{adminMoneyMessages.callbackMissing}</Alert>
      ) : report.isError ? (
        <LoadFailure error={report.error} retry={() => callback && report.mutate(callback)}>
          <Alert tone="error">{errorMessage(report.error, adminMoneyMessages.updateFailed)}</Alert>
        </LoadFailure>
      ) : report.isSuccess ? (
        <Alert tone={report.data.disbursement.status === 'COMPLETE' ? 'success' : 'info'}>{report.data.message}</Alert>
      ) : (
        <Spinner label="Recording the disbursement" />
      )}
      <p>
        <Link className="button button-secondary" to={back}>
          Back to disbursements
        </Link>
      </p>
    </div>
  );
}
