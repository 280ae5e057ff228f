/**
 * 1234567 → "1,234,567": a whole number with its digits grouped in threes, as en-US writes it.
 * Written out rather than asked of Intl (toLocaleString), which reads the same: the first Intl
 * format of a page loads the browser's locale data, some 30 ms of a phone's first second
 * (issue 24). tests/unit/money-format.test.ts holds it to Intl's output.
 */
export const formatCount = (count: number) => String(Math.trunc(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
