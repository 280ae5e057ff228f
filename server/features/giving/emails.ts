import { formatCents } from '../../../shared/money';
import { formatSiteDate } from '../../../shared/site-dates';
import { escapeHtml, layout, type Site, withNoteFirst } from '../../infra/email/layout';
import type { EmailMessage } from '../../infra/email/mailer';
import { receiptEmail, type ReceiptFundraiser, type ReceiptMoney } from '../donations/emails';
import type { DonationRow } from './queries';

// The giving history's emails (issue 26): a copy of a receipt, asked for from the history, and the
// year-end statement's link that `send-statements` sends each donor once a year.

/** Where the donor finds their giving history (the client's /account/giving). */
export const givingHistoryPath = '/account/giving';

export type ReceiptCopyContext = {
  siteUrl: string;
  timeZone: string;
  requestedAt: Date;
  /** What went back to the donor since the receipt (refunds, disputes lost). */
  refundedCents: number;
  /** The payment gave an album to this very email, and it still has it: Your music plays it. */
  albumInYourMusic: boolean;
};

/**
 * The receipt again, as the donations feature writes it, but without a download link: the first
 * receipt's link was made once and its plain token forgotten, and a fresh one on every copy would
 * be one more key to the album in a mailbox for each click. The donor's Your music has the album.
 */
export function receiptCopyEmail(
  site: Parameters<typeof receiptEmail>[0],
  donation: DonationRow,
  money: ReceiptMoney,
  fundraiser: ReceiptFundraiser | null,
  context: ReceiptCopyContext,
): EmailMessage {
  const receipt = receiptEmail(site, donation, money, fundraiser, null);
  const asked = `This is a copy of your receipt, sent on ${formatSiteDate(context.requestedAt, context.timeZone)} because you asked for it from your giving history.`;
  const notes = [
    asked,
    ...(context.refundedCents > 0
      ? [
          `Since then ${formatCents(context.refundedCents)} of this payment went back to you. Your giving history and your year-end statement show what counts for your taxes: ${context.siteUrl}${givingHistoryPath}`,
        ]
      : []),
    ...(context.albumInYourMusic
      ? [`Your music has the album: log in with ${donation.email} at ${context.siteUrl}/music to play or download it.`]
      : []),
  ];
  return {
    ...receipt,
    subject: `Copy of your receipt: ${receipt.subject}`,
    text: [...notes, '', receipt.text].join('\n'),
    html: withNoteFirst(
      receipt.html,
      notes.map((note) => `<p style="font-size:13px;color:#6b6480">${escapeHtml(note)}</p>`).join(''),
    ),
    summary: `copy of a receipt (${receipt.summary})`,
  };
}

export type StatementEmailInput = {
  email: string;
  name: string | null;
  year: number;
  link: string;
  expiresAt: Date;
  siteUrl: string;
  timeZone: string;
};

/** The year-end statement's link: one email per donor and year (send-statements). */
export function statementEmail(site: Site, input: StatementEmailInput): EmailMessage {
  const greeting = input.name ? `Hi ${input.name},` : 'Hi,';
  const until = formatSiteDate(input.expiresAt, input.timeZone);
  const history = `${input.siteUrl}${givingHistoryPath}`;
  const intro = `Thank you for giving through ${site.siteName} in ${input.year}. Your year-end giving statement lists each donation with its charity and EIN, and the part of it that is tax-deductible, for your tax records.`;
  const later = `The link works until ${until}. Any time after that, log in with ${input.email} and download it from your giving history: ${history}`;
  return {
    to: input.email,
    subject: `Your ${input.year} giving statement from ${site.siteName}`,
    text: [greeting, '', intro, '', `Download your statement (PDF): ${input.link}`, '', later].join('\n'),
    html: layout(
      site,
      `Your ${input.year} giving statement`,
      `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#4c2a85;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">Download your statement (PDF)</a></p>
<p style="font-size:13px">${escapeHtml(later)}</p>`,
    ),
    summary: `giving statement ${input.year}, link ${input.link}`,
  };
}
