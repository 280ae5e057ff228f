import { useState } from 'react';

/**
 * True from the first render where `value` is true, for good. A part loaded on first use (a dialog,
 * a menu) stays mounted afterwards, so closing it animates and returns focus as it should.
 */
export function useHasBeenTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}
