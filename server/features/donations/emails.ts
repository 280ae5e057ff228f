import { formatCents, taxDeductibleCents } from '../../../shared/money';
import { formatEin } from '../../../shared/ein';
import { formatSiteDate, startOfSiteDay } from '../../../shared/site-dates';
import { escapeHtml, layout, type Site } from '../../infra/email/layout';
import type { EmailMessage } from '../../infra/email/mailer';
import type { DonationRow } from './queries';

// The receipt: one email per succeeded payment (DESIGN.md "Contract details for money"), naming the
// fundraiser in its subject, with the amounts, the tax-deductible part, the charity and its EIN,
// and the album's download link.

export type ReceiptFundraiser = { name: string; artistName: string };

/** What the payment gave, as the money journal's charge recorded it. */
export type ReceiptMoney = { donationCents: number; tipCents: number };

export function receiptEmail(
  site: Site & { timeZone: string },
  donation: DonationRow,
  money: ReceiptMoney,
  fundraiser: ReceiptFundraiser | null,
  downloadLink: string | null,
): EmailMessage {
  const total = money.donationCents + money.tipCents;
  const deductible = taxDeductibleCents(money.donationCents, donation.minimumCents);
  const greeting = donation.name ? `Hi ${donation.name},` : 'Hi,';
  if (!fundraiser) {
    // A gift to the platform (the support page): no album, no charity.
    return {
      to: donation.email,
      subject: `Thank you for supporting ${site.siteName}`,
      text: [
        greeting,
        '',
        `Thank you for your gift of ${formatCents(total)} to ${site.siteName}. It keeps the site running for the artists and charities on it.`,
        '',
        `Questions? Write to us at ${site.contactEmail}.`,
      ].join('\n'),
      html: layout(
        site,
        'Thank you for your support',
        `<p>${escapeHtml(greeting)}</p><p>Thank you for your gift of <strong>${formatCents(total)}</strong> to ${escapeHtml(site.siteName)}. It keeps the site running for the artists and charities on it.</p>`,
      ),
      summary: `receipt for a ${formatCents(total)} gift`,
    };
  }
  const charity = `${donation.charityName ?? ''} (EIN ${formatEin(donation.charityEin ?? '')})`;
  // The journal's charge counts the fee's cover with the donation; the receipt shows each.
  const cover = Math.min(donation.feeCoverCents, money.donationCents);
  const lines: [string, string][] = [
    ['Donation', formatCents(money.donationCents - cover)],
    ...(cover > 0 ? [['Card fee covered', formatCents(cover)] as [string, string]] : []),
    [`Tip to ${site.siteName}`, formatCents(money.tipCents)],
    ['Total', formatCents(total)],
    ['Tax-deductible part', formatCents(deductible)],
  ];
  const gift = giftLine(site, donation);
  const download = downloadLink
    ? `Download the album: ${downloadLink}\n(The link works for 30 days. Create an account with this email address to stream the album any time.)`
    : '';
  return {
    to: donation.email,
    subject: `Your donation to ${fundraiser.name}`,
    text: [
      greeting,
      '',
      `Thank you for your donation to ${fundraiser.name} by ${fundraiser.artistName}. It goes to ${charity}.`,
      ...(gift ? ['', gift] : []),
      '',
      ...lines.map(([label, value]) => `${label}: ${value}`),
      '',
      `The tax-deductible part is what you gave above the fundraiser's minimum of ${formatCents(donation.minimumCents)}, which buys the album.`,
      '',
      download,
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      `Thank you for your donation to ${fundraiser.name}`,
      `<p>${escapeHtml(greeting)}</p>
<p>Thank you for your donation to <strong>${escapeHtml(fundraiser.name)}</strong> by ${escapeHtml(fundraiser.artistName)}. It goes to ${escapeHtml(charity)}.</p>
${gift ? `<p>${escapeHtml(gift)}</p>` : ''}
<table role="presentation" cellpadding="4" cellspacing="0">${lines
        .map(
          ([label, value]) => `<tr><td>${escapeHtml(label)}</td><td align="right"><strong>${value}</strong></td></tr>`,
        )
        .join('')}</table>
<p style="font-size:13px;color:#6b6480">The tax-deductible part is what you gave above the fundraiser's minimum of ${formatCents(donation.minimumCents)}, which buys the album.</p>
${
  downloadLink
    ? `<p><a href="${escapeHtml(downloadLink)}" style="display:inline-block;background:#4c2a85;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">Download the album</a></p>
<p style="font-size:13px">The link works for 30 days. Create an account with this email address to stream the album any time.</p>`
    : ''
}`,
    ),
    summary: downloadLink ? `receipt, download link ${downloadLink}` : gift ? 'receipt for a gift' : 'receipt',
  };
}

/** What a gift's receipt says of it (issue 26): for whom, and when the album reaches them. */
function giftLine(site: Site & { timeZone: string }, donation: DonationRow): string | null {
  if (!donation.giftRecipientName || !donation.giftRecipientEmail) return null;
  const recipient = `${donation.giftRecipientName} (${donation.giftRecipientEmail})`;
  const when = donation.giftDeliverOn
    ? `on the morning of ${formatSiteDate(startOfSiteDay(donation.giftDeliverOn, site.timeZone), site.timeZone)}`
    : 'now';
  const what = donation.giftMessage?.trim() ? 'the album with your message' : 'the album';
  return `This donation is a gift for ${recipient}. We are sending them ${what} ${when}; the receipt and the tax-deductible part are yours.`;
}

export type GiftAlbum = { name: string; artistName: string; charityName: string | null };

/**
 * The gift email (issue 26): to the recipient, once, with the giver's message and the link that
 * plays and downloads the album at once. No amounts: what was given is the giver's business.
 */
export function giftEmail(site: Site, donation: DonationRow, album: GiftAlbum, link: string): EmailMessage {
  const giver = donation.name || 'Someone';
  const greeting = donation.giftRecipientName ? `Hi ${donation.giftRecipientName},` : 'Hi,';
  const title = `${giver} sent you ${album.name} by ${album.artistName}`;
  const message = donation.giftMessage?.trim() ?? '';
  const charity = album.charityName ? ` Their donation went to ${album.charityName}.` : '';
  const keep = 'The link works for 30 days. Create an account with this email address to keep the album in Your music.';
  return {
    to: donation.giftRecipientEmail!,
    subject: `${giver} sent you an album: ${album.name}`,
    text: [
      greeting,
      '',
      `${title}, a fundraiser on ${site.siteName}.${charity}`,
      ...(message ? ['', `${giver} wrote:`, message] : []),
      '',
      `Listen and download: ${link}`,
      `(${keep})`,
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      title,
      `<p>${escapeHtml(greeting)}</p>
<p><strong>${escapeHtml(giver)}</strong> sent you <strong>${escapeHtml(album.name)}</strong> by ${escapeHtml(album.artistName)}, a fundraiser on ${escapeHtml(site.siteName)}.${escapeHtml(charity)}</p>
${
  message
    ? `<blockquote style="margin:16px 0;padding:8px 16px;border-left:4px solid #4c2a85;white-space:pre-wrap">${escapeHtml(message)}</blockquote>`
    : ''
}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#4c2a85;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">Listen and download</a></p>
<p style="font-size:13px">${escapeHtml(keep)}</p>`,
    ),
    summary: `gift from ${giver}, link ${link}`,
  };
}
