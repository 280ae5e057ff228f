// Text put into HTML the server writes (pages, emails, the embedded player): one way to escape it.

/** Text safe in an element's content or a quoted attribute: `& < > " '` as numeric references. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON inside a `<script type="application/json">` block: `<` escaped, so no text can close the
 * element or open a comment, and the two line separators JavaScript once refused in strings.
 */
export function scriptSafeJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
