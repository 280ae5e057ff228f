// The look of every email the site sends: one column, the site's name on top, the contact line
// below. Only values we generate or that the user typed about themselves are interpolated, and
// those are HTML-escaped.

/** The sender's details every email names. */
export type Site = { siteName: string; contactEmail: string };

import { escapeHtml } from '../../../shared/html';

export { escapeHtml };

/** The cell every email's body goes in (layout), found again by withNoteFirst. */
const BODY_CELL = '<td style="font-size:15px;line-height:1.6">';

/**
 * A message made by layout with `noteHtml` first in its body: a copy of an email says why it
 * came again above what it repeats (the giving history's receipt copies, issue 26).
 */
export function withNoteFirst(html: string, noteHtml: string): string {
  // A function, so that a "$" in the note is never read as a replacement pattern.
  return html.replace(BODY_CELL, () => `${BODY_CELL}${noteHtml}`);
}

export function layout(site: Site, heading: string, bodyHtml: string): string {
  const name = escapeHtml(site.siteName);
  return `<!doctype html>
<html lang="en"><body style="margin:0;background:#f6f4fb;font-family:Arial,Helvetica,sans-serif;color:#1d1530">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:bold;color:#4c2a85;padding-bottom:16px">${name}</td></tr>
<tr><td style="font-size:18px;font-weight:bold;padding-bottom:12px">${escapeHtml(heading)}</td></tr>
<tr>${BODY_CELL}${bodyHtml}</td></tr>
<tr><td style="font-size:12px;color:#6b6480;padding-top:24px">Questions? Write to us at <a href="mailto:${escapeHtml(site.contactEmail)}">${escapeHtml(site.contactEmail)}</a>.<br>${name}: music for a cause.</td></tr>
</table></td></tr></table></body></html>`;
}
