import { csvText } from '../../infra/csv';
import { serverMessages } from '../../../shared/api';
import type { Deps } from '../../deps';
import { rateLimited } from '../../errors';
import { isThrottled, recordAttempt, type ThrottleRule } from '../../infra/security/throttle';
import * as queries from './queries';

/**
 * Always stored here (admins export it as CSV). When MAILING_LIST_URL is set the address is also
 * posted there as the EMAIL form field (spec part 1 section 7); a failure there is logged, not
 * shown, because the address is already safe in our database.
 */
const signupsByIp: ThrottleRule = { bucket: 'mailing-list-ip', limit: 20, windowMs: 60 * 60 * 1000 };

export async function subscribe(deps: Deps, email: string, clientIp: string): Promise<void> {
  // A public form that writes to the database: one address cannot fill it with junk.
  if (isThrottled(deps.db, signupsByIp, clientIp)) throw rateLimited(serverMessages.rateLimited);
  recordAttempt(deps.db, signupsByIp, clientIp);
  queries.upsertSubscriber(deps.db, email);
  if (!deps.config.mailingListUrl) return;
  try {
    const response = await fetch(deps.config.mailingListUrl, {
      method: 'POST',
      body: new URLSearchParams({ EMAIL: email }),
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) deps.logger.warn({ status: response.status }, 'mailing list service refused a signup');
  } catch (error) {
    deps.logger.warn({ err: error }, 'mailing list service unreachable');
  }
}

export function subscribersCsv(deps: Deps): string {
  const rows = queries.listSubscribers(deps.db).map((row) => [row.email, row.createdAt.toISOString()]);
  return csvText(['email', 'subscribedAt'], rows);
}
