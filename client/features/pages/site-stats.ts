/** What the operator says of itself (spec part 1 section 1), on the about and the artists' pages. */
export const siteStats = [
  { value: '200+', label: 'fundraisers' },
  { value: '100+', label: 'charities supported' },
  { value: '1,000+', label: 'artists' },
] as const;
