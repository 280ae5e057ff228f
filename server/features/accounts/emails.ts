import { escapeHtml, layout, type Site } from '../../infra/email/layout';
import type { EmailMessage } from '../../infra/email/mailer';

// Account emails in text and HTML, each naming the site (issue 2). Only values we generate or
// that the user typed about themselves are interpolated, and those are HTML-escaped.

export function verificationCodeEmail(site: Site, to: string, firstName: string | null, code: string): EmailMessage {
  const greeting = firstName ? `Hi ${firstName},` : 'Hi,';
  return {
    to,
    subject: `Your ${site.siteName} verification code: ${code}`,
    text: [
      greeting,
      '',
      `Your ${site.siteName} verification code is ${code}.`,
      '',
      'Enter it on the verification page to confirm your email address. The code is valid for 30 minutes.',
      'You need a verified email to create artists, fundraisers and more.',
      '',
      `If you did not create a ${site.siteName} account, you can ignore this email.`,
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      'Confirm your email address',
      `<p>${escapeHtml(greeting)}</p>
<p>Your verification code is:</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:bold;margin:16px 0">${code}</p>
<p>Enter it on the verification page to confirm your email address. The code is valid for 30 minutes.</p>
<p>If you did not create a ${escapeHtml(site.siteName)} account, you can ignore this email.</p>`,
    ),
    summary: `verification code ${code}`,
  };
}

export function passwordResetEmail(site: Site, to: string, link: string): EmailMessage {
  return {
    to,
    subject: `Reset your ${site.siteName} password`,
    text: [
      'Hi,',
      '',
      `Someone (hopefully you) asked to reset the password of your ${site.siteName} account.`,
      'Open this link to choose a new password. It works once and expires in one hour:',
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      'Reset your password',
      `<p>Someone (hopefully you) asked to reset the password of your ${escapeHtml(site.siteName)} account.</p>
<p>This link works once and expires in one hour:</p>
<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#4c2a85;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Choose a new password</a></p>
<p style="font-size:13px;word-break:break-all">Or paste this address into your browser: ${escapeHtml(link)}</p>
<p>If you did not ask for this, you can ignore this email: your password stays as it is.</p>`,
    ),
    summary: `password reset link ${link}`,
  };
}

export function emailChangeCodeEmail(site: Site, to: string, firstName: string | null, code: string): EmailMessage {
  const greeting = firstName ? `Hi ${firstName},` : 'Hi,';
  return {
    to,
    subject: `Confirm your new ${site.siteName} email address: ${code}`,
    text: [
      greeting,
      '',
      `To use this address for your ${site.siteName} account, enter this code on your account page.`,
      '',
      `Your confirmation code is ${code}.`,
      '',
      'The code is valid for 30 minutes. Until you enter it, your account keeps its current address.',
      '',
      `If you did not ask for this, you can ignore this email.`,
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      'Confirm your new email address',
      `<p>${escapeHtml(greeting)}</p>
<p>To use this address for your ${escapeHtml(site.siteName)} account, enter this code on your account page:</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:bold;margin:16px 0">${code}</p>
<p>The code is valid for 30 minutes. Until you enter it, your account keeps its current address.</p>
<p>If you did not ask for this, you can ignore this email.</p>`,
    ),
    summary: `email change code ${code}`,
  };
}

/** To the address being left: the owner learns of the change even if someone else made it. */
export function emailChangedNotice(site: Site, to: string, newEmail: string): EmailMessage {
  return {
    to,
    subject: `Your ${site.siteName} email address was changed`,
    text: [
      'Hi,',
      '',
      `The email address of your ${site.siteName} account was changed to ${newEmail}.`,
      'Music bought with this address stays with it: sign up again with it to find it in Your music.',
      '',
      `If you did not make this change, write to us at once at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      'Your email address was changed',
      `<p>The email address of your ${escapeHtml(site.siteName)} account was changed to <strong>${escapeHtml(newEmail)}</strong>.</p>
<p>Music bought with this address stays with it: sign up again with it to find it in Your music.</p>
<p>If you did not make this change, write to us at once at <a href="mailto:${escapeHtml(site.contactEmail)}">${escapeHtml(site.contactEmail)}</a>.</p>`,
    ),
    summary: `email changed to ${newEmail}`,
  };
}

export function accountDeletedEmail(site: Site, to: string): EmailMessage {
  return {
    to,
    subject: `Your ${site.siteName} account was deleted`,
    text: [
      'Hi,',
      '',
      `Your ${site.siteName} account has been deleted, with your artists and fundraisers.`,
      'Donations already made still go to their charities. Music you bought stays with this email',
      'address: sign up again with it whenever you like, and it will be in Your music.',
      '',
      `Questions? Write to us at ${site.contactEmail}.`,
    ].join('\n'),
    html: layout(
      site,
      'Your account was deleted',
      `<p>Your ${escapeHtml(site.siteName)} account has been deleted, with your artists and fundraisers.</p>
<p>Donations already made still go to their charities. Music you bought stays with this email address: sign up again with it whenever you like, and it will be in Your music.</p>`,
    ),
    summary: 'account deleted',
  };
}
