// Small helpers the fundraiser page and the manage page share.

/** Only http(s) addresses become links: a stored website is never trusted to be one. */
export function safeWebsite(website: string | undefined): string | null {
  return website && /^https?:\/\//i.test(website) ? website : null;
}

/** "https://www.example.org/" → "www.example.org": what a person reads in a link. */
export function displayWebsite(website: string): string {
  return website.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}
