// Links to other sites that people typed in (charity and artist websites).

/** A website as a link target only when it is http(s): never javascript: or data:. */
export function safeWebsite(website: string | null | undefined): string | null {
  return website && /^https?:\/\//i.test(website) ? website : null;
}

/** "https://www.example.org/" → "www.example.org": what a person reads in a link. */
export function displayWebsite(website: string): string {
  return website.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

/** The public ledger's row of one charity: `ein-` and the EIN's digits, so pages can link to it. */
export function ledgerRowId(ein: string): string {
  return `ein-${ein.replace(/\D/g, '')}`;
}

/** "See where the money goes" from a fundraiser page: the ledger, at its charity's row. */
export function ledgerPath(ein: string): string {
  return `/where-the-money-goes#${ledgerRowId(ein)}`;
}
