import { plainDollars } from '../../../shared/money';
import type { CallbackAction } from '../../../shared/schemas/admin-money';

// Where an admin's Disburse goes (DESIGN.md section 2, disbursement): the giving site's prefilled
// once-off bank donation to the charity, Every.org's donate link by default. The partner donation
// id is our disbursement's id; finishing there returns to the callback page to mark it complete,
// leaving returns to mark it canceled.

export function callbackPageUrl(siteUrl: string, action: CallbackAction, disbursementId: number, secret: string) {
  const query = new URLSearchParams({ action, callbackSecret: secret, disbursementId: String(disbursementId) });
  return `${siteUrl}/admin/disbursement-complete?${query.toString()}`;
}

export function givingSiteDonationUrl(input: {
  givingSiteUrl: string;
  siteUrl: string;
  ein: string;
  amountCents: number;
  disbursementId: number;
  callbackSecret: string;
}) {
  const query = new URLSearchParams({
    amount: plainDollars(input.amountCents),
    frequency: 'ONCE',
    partner_donation_id: String(input.disbursementId),
    success_url: callbackPageUrl(input.siteUrl, 'markComplete', input.disbursementId, input.callbackSecret),
    exit_url: callbackPageUrl(input.siteUrl, 'markCanceled', input.disbursementId, input.callbackSecret),
  });
  // Every.org reads the donate flow and its method from the fragment: #/donate/bank.
  return `${input.givingSiteUrl}/${encodeURIComponent(input.ein)}#/donate/bank?${query.toString()}`;
}

/** The disbursement's source: the giving site's host. */
export function givingSiteSource(givingSiteUrl: string) {
  return new URL(givingSiteUrl).host;
}
