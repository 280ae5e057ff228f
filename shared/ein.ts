// Employer Identification Numbers, as charities are known to the IRS (spec part 2 section 3).

/** 9 digits, with or without the dash after the second (12-3456789 or 123456789). */
export function normaliseEin(value: string): string | null {
  const match = value.trim().match(/^(\d{2})-?(\d{7})$/);
  return match ? `${match[1]}${match[2]}` : null;
}

export function formatEin(digits: string): string {
  return `${digits.slice(0, 2)}-${digits.slice(2)}`;
}
