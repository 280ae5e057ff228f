import { errorMessage, formErrorsOf } from '../../api/http';
import { Alert } from '../alert';
import { LoadFailure } from '../offline-notice';

/**
 * An insight answer that did not come: offline, the way to what still works; a period the API
 * refuses (`?days=forever` typed in the address), its reason; anything else, the page's message.
 */
export function InsightFailure({ error, retry }: { error: unknown; retry: () => unknown }) {
  const refused = formErrorsOf(error)[0]?.message;
  return (
    <LoadFailure error={error} retry={retry}>
      <Alert tone="error">{refused ?? errorMessage(error, 'Failed to load insight')}</Alert>
    </LoadFailure>
  );
}
